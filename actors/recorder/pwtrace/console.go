package pwtrace

import "errors"

// Console writes a page's console message; the console tab shows it, and
// an action's badge counts its errors and warnings. It refuses a message
// without a time.
func (w *Writer) Console(c Console) error {
	if err := w.usable(); err != nil {
		return err
	}
	if c.Time.IsZero() {
		return errors.New("pwtrace: a console message without a time")
	}
	kind := c.Type
	if kind == "" {
		kind = "log"
	}
	at := ms(c.Time)
	err := w.add(false, at, rankEvent, consoleEvent{
		Type: "console", Time: at, PageID: c.Page, MessageType: kind, Text: c.Text,
		Location: consoleLocation{URL: c.URL, LineNumber: c.Line, ColumnNumber: c.Column},
	})
	if err == nil {
		w.counts.Console++
	}
	return err
}

// PageError writes an exception a page did not catch, as Playwright does
// (BrowserContext's pageError event); the console tab shows it as an
// error. It refuses one without a time.
func (w *Writer) PageError(e PageError) error {
	if err := w.usable(); err != nil {
		return err
	}
	if e.Time.IsZero() {
		return errors.New("pwtrace: a page error without a time")
	}
	name := e.Name
	if name == "" {
		name = "Error"
	}
	at := ms(e.Time)
	err := w.add(false, at, rankEvent, pageErrorEvent{
		Type: "event", Time: at, Class: "BrowserContext", Method: "pageError", PageID: e.Page,
		Params: pageErrorParams{Error: serializedError{Error: errorObject{Name: name, Message: e.Message, Stack: e.Stack}}},
	})
	if err == nil {
		w.counts.Console++
	}
	return err
}
