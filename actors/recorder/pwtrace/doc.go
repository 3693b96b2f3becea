// Package pwtrace writes a world's recording as a Playwright trace: a zip
// that Playwright's own trace viewer (`npx playwright show-trace FILE`,
// trace.playwright.dev) opens, showing the filmstrip and each action's
// screenshot from the screencast frames, the actions list from the
// clients' commands, and the network and console tabs.
//
// It is a format, not an actor: a recorder hands a Writer typed events
// (Frame, Action, Mark, Navigation, Download, Console, PageError,
// Request) in any order and closes it; the Writer streams each frame's
// JPEG into the zip at once and keeps the small JSON events until Close,
// which sorts them by time and writes them.
//
// # Privacy
//
// The Writer writes only what it is given, and nothing of it anywhere else
// (no log). Callers must not give it what the journal never keeps: no
// Runtime.evaluate or callFunctionOn text, no typed text (Input.insertText,
// a key event's text), no cookie values, no header values but a content
// type, no request or response bodies. An Action's Params, a Mark's Params
// and a Console message's Text are written as given: filter them before.
//
// # The format (what the pinned viewer, playwright-core 1.65.1, reads)
//
// The zip holds trace.trace and trace.network (JSON lines) and resources/
// (the frames' JPEGs, each named by the SHA-1 of its bytes, stored once).
// The viewer finds every *.trace entry, reads NAME.trace then NAME.network
// through one TraceModernizer (playwright-core lib/vite/traceViewer/
// sw.bundle.js; in Playwright's source packages/isomorphic/trace/
// traceLoader.ts and traceModernizer.ts), so:
//   - the first line must be "context-options" with "version": a newer
//     version than the viewer's (10 in 1.65.1) is refused, and a line
//     before it is read as version 6;
//   - "before" must precede its "input", "after" and "log" lines (the
//     modernizer looks the call up by callId and fails on a missing one);
//   - a page's "screencast-frame" lines must be in time order (the
//     filmstrip searches them by timestamp), and their timestamps non-zero;
//   - times are milliseconds on one clock: here the Unix epoch's, so
//     wallTime and monotonicTime of context-options are equal.
//
// Each action has "screenshot" events (callId, phase before/after/action,
// file) that point at the frame the page showed then: without DOM
// snapshots the 1.65.1 viewer shows these in its snapshot pane.
package pwtrace
