// Package goclients holds the third-party Go CDP clients the tests drive
// against cdpvisor, each a command of its own (chromedp, go-rod), as the
// npm clients live in testdata/clients. A module of its own, so that the
// clients' dependencies never enter cdpvisor's go.mod.
package goclients
