package recorder

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// maxText bounds a console message or an error's text as kept.
const maxText = 4096

// readPageEvent reads the page events the recorder keeps as they are.
func readPageEvent(method string, params json.RawMessage) (kind string, v any, ok bool) {
	switch method {
	case "Page.frameNavigated":
		var p struct {
			Frame struct {
				ParentID string `json:"parentId"`
				URL      string `json:"url"`
			} `json:"frame"`
		}
		if json.Unmarshal(params, &p) != nil || p.Frame.ParentID != "" {
			return "", nil, false // a subframe's: the page's URL is its main frame's
		}
		return kindNavigation, pwtrace.Navigation{URL: p.Frame.URL, Time: time.Now()}, true
	case "Page.downloadWillBegin":
		// A page's download, seen on the recorder's own session whatever
		// download behaviour a client set (the downloads feature does not
		// track a download whose client set its own).
		var p struct {
			GUID string `json:"guid"`
			URL  string `json:"url"`
			Name string `json:"suggestedFilename"`
		}
		if json.Unmarshal(params, &p) != nil || p.GUID == "" {
			return "", nil, false
		}
		return kindDownload, downloads.Entry{ID: p.GUID, URL: p.URL, Filename: cut(p.Name), State: downloads.InProgress}, true
	case "Page.downloadProgress":
		var p struct {
			GUID  string `json:"guid"`
			State string `json:"state"`
		}
		if json.Unmarshal(params, &p) != nil || p.GUID == "" {
			return "", nil, false
		}
		switch p.State {
		case "completed":
			return kindDownload, downloads.Entry{ID: p.GUID, State: downloads.Completed}, true
		case "canceled":
			return kindDownload, downloads.Entry{ID: p.GUID, State: downloads.Canceled}, true
		}
		return "", nil, false
	case "Runtime.consoleAPICalled":
		var p struct {
			Type      string  `json:"type"`
			Timestamp float64 `json:"timestamp"` // ms since the epoch
			Args      []struct {
				Type        string          `json:"type"`
				Value       json.RawMessage `json:"value"`
				Description string          `json:"description"`
				Unserial    string          `json:"unserializableValue"`
			} `json:"args"`
			StackTrace *stackTrace `json:"stackTrace"`
		}
		if json.Unmarshal(params, &p) != nil {
			return "", nil, false
		}
		words := make([]string, 0, len(p.Args))
		for _, a := range p.Args {
			var s string
			switch {
			case a.Type == "string" && json.Unmarshal(a.Value, &s) == nil:
			case a.Unserial != "":
				s = a.Unserial
			case len(a.Value) > 0:
				s = string(a.Value)
			default:
				s = a.Description
			}
			words = append(words, s)
		}
		c := pwtrace.Console{Type: p.Type, Text: cut(strings.Join(words, " ")), Time: epoch(p.Timestamp / 1000)}
		if f := p.StackTrace.top(); f != nil {
			c.URL, c.Line, c.Column = f.URL, f.Line, f.Column
		}
		return kindConsole, c, true
	case "Runtime.exceptionThrown":
		var p struct {
			Timestamp float64 `json:"timestamp"`
			Details   struct {
				Text      string `json:"text"`
				Exception *struct {
					ClassName   string `json:"className"`
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(params, &p) != nil {
			return "", nil, false
		}
		e := pwtrace.PageError{Time: epoch(p.Timestamp / 1000), Name: "Error", Message: p.Details.Text}
		if x := p.Details.Exception; x != nil {
			if x.ClassName != "" {
				e.Name = x.ClassName
			}
			// A description is "Name: message\n    at …": its first line
			// is the message, the rest the stack.
			first, rest, _ := strings.Cut(x.Description, "\n")
			if first != "" {
				e.Message = strings.TrimPrefix(first, e.Name+": ")
			}
			e.Stack = cut(rest)
		}
		e.Message = cut(e.Message)
		return kindPageError, e, true
	}
	return "", nil, false
}

type stackTrace struct {
	CallFrames []struct {
		URL    string `json:"url"`
		Line   int    `json:"lineNumber"`
		Column int    `json:"columnNumber"`
	} `json:"callFrames"`
}

type callFrame = struct {
	URL    string `json:"url"`
	Line   int    `json:"lineNumber"`
	Column int    `json:"columnNumber"`
}

func (s *stackTrace) top() *callFrame {
	if s == nil || len(s.CallFrames) == 0 {
		return nil
	}
	f := callFrame(s.CallFrames[0])
	return &f
}

func cut(s string) string {
	if len(s) <= maxText {
		return s
	}
	return s[:maxText] + "…"
}
