package multiplex

import (
	"fmt"
	"net/http"
)

// noSchema says why /json/protocol has no answer and what a client can do.
const noSchema = "cdpvisor runs this browser over its debugging pipe, which does not serve the protocol schema, and %s; " +
	"use a client's own copy (chrome-remote-interface: CDP({local: true})) or the one at https://chromedevtools.github.io/devtools-protocol/"

// jsonProtocol answers the protocol schema, as Chromium's HTTP server does
// (its Content-Type, the document unchanged), or 404 saying why not.
func (c *Connection) jsonProtocol(req *http.Request) (*http.Response, error) {
	if c.schema == nil {
		return reply(req, http.StatusNotFound, "text/plain", fmt.Appendf(nil, noSchema, "knows no other place to find it"))
	}
	doc, err := c.schema(req.Context(), c.version)
	if err != nil {
		return reply(req, http.StatusNotFound, "text/plain", fmt.Appendf(nil, noSchema, "found none for it ("+err.Error()+")"))
	}
	return reply(req, http.StatusOK, "application/json; charset=UTF-8", doc)
}
