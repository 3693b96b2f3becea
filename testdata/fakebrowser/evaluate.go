package main

import (
	"regexp"
	"strconv"
	"strings"
)

// evaluate fakes Runtime.evaluate well enough for relays to be checked:
// integers and a+b give numbers, fake:bytes:N gives a reply of a chosen size,
// anything else comes back as a string.
var (
	integerExpr = regexp.MustCompile(`^\s*(-?[0-9]+)\s*$`)
	sumExpr     = regexp.MustCompile(`^\s*(-?[0-9]+)\s*\+\s*(-?[0-9]+)\s*$`)
	bytesExpr   = regexp.MustCompile(`^fake:bytes:([0-9]+)$`)
)

type remoteObject struct {
	Type        string `json:"type"`
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

type evaluateResult struct {
	Result remoteObject `json:"result"`
}

func evaluate(expression string) evaluateResult {
	if m := integerExpr.FindStringSubmatch(expression); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			return number(n)
		}
	}
	if m := sumExpr.FindStringSubmatch(expression); m != nil {
		a, errA := strconv.ParseInt(m[1], 10, 64)
		b, errB := strconv.ParseInt(m[2], 10, 64)
		if errA == nil && errB == nil {
			return number(a + b)
		}
	}
	if m := bytesExpr.FindStringSubmatch(expression); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return evaluateResult{remoteObject{Type: "string", Value: strings.Repeat("x", n)}}
		}
	}
	return evaluateResult{remoteObject{Type: "string", Value: expression}}
}

func number(n int64) evaluateResult {
	return evaluateResult{remoteObject{Type: "number", Value: n, Description: strconv.FormatInt(n, 10)}}
}
