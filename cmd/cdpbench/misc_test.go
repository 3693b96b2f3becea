package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestMessageID(t *testing.T) {
	cases := []struct {
		msg  string
		id   int64
		isID bool
	}{
		{`{"id":42,"result":{}}`, 42, true},
		{`{"id":-9999,"result":{}}`, -9999, true},
		{`{"id":7}`, 7, true},
		{`{"method":"Target.attachedToTarget","params":{}}`, 0, false},
		{`{"result":{},"id":9,"sessionId":"S"}`, 9, true}, // id not first: full decode
		{`{"id":1x`, 0, false},
		{`not json`, 0, false},
	}
	for _, c := range cases {
		id, ok := messageID([]byte(c.msg))
		if id != c.id || ok != c.isID {
			t.Errorf("messageID(%s) = %d, %v; want %d, %v", c.msg, id, ok, c.id, c.isID)
		}
	}
}

func TestDecodeAnswer(t *testing.T) {
	var v browserVersion
	if err := decodeAnswer([]byte(`{"id":1,"result":{"product":"Chrome/156"}}`), &v); err != nil || v.Product != "Chrome/156" {
		t.Errorf("decode: %v %+v", err, v)
	}
	err := decodeAnswer([]byte(`{"id":1,"error":{"code":-32000,"message":"nope"}}`), nil)
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("error answer: %v", err)
	}
	if answerError([]byte(`{"id":1,"error":{"code":-32601,"message":"x"}}`)) == nil {
		t.Error("answerError missed an error")
	}
	if answerError([]byte(`{"id":1,"result":{}}`)) != nil {
		t.Error("answerError on a result")
	}
}

func TestParseActivePort(t *testing.T) {
	if p, err := parseActivePort("41233\n/devtools/browser/abc"); err != nil || p != 41233 {
		t.Errorf("= %d, %v", p, err)
	}
	if p, err := parseActivePort("9222"); err != nil || p != 9222 {
		t.Errorf("no newline: %d, %v", p, err)
	}
	for _, bad := range []string{"", "\n/devtools", "0\nx", "99999\nx", "abc"} {
		if _, err := parseActivePort(bad); err == nil {
			t.Errorf("parseActivePort(%q) accepted", bad)
		}
	}
}

func TestHTTPEndpoint(t *testing.T) {
	if got, err := httpEndpoint("ws://127.0.0.1:5/devtools/browser/u"); err != nil || got != "http://127.0.0.1:5" {
		t.Errorf("= %q, %v", got, err)
	}
	if _, err := httpEndpoint("/devtools/browser/u"); err == nil {
		t.Error("no host accepted")
	}
}

func TestCleanerRunsNewestFirstAndOnce(t *testing.T) {
	var c cleaner
	var order []int
	c.add(func() { order = append(order, 1) })
	now := c.add(func() { order = append(order, 2) })
	c.add(func() { order = append(order, 3) })
	now()
	c.run()
	c.run()
	if !reflect.DeepEqual(order, []int{2, 3, 1}) {
		t.Errorf("order = %v", order)
	}
}

func TestParseConfig(t *testing.T) {
	c, err := parseConfig([]string{"--launch", "--quick"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.RTCalls != 1000 || c.LargeRuns != 5 || c.FaninReq != 500 || c.FaninCli != 100 || c.ColdRuns != 3 {
		t.Errorf("quick defaults: %+v", c)
	}
	c, err = parseConfig([]string{"--launch", "--quick", "--rt-calls", "77"}, io.Discard)
	if err != nil || c.RTCalls != 77 {
		t.Errorf("explicit count under --quick: %d, %v", c.RTCalls, err)
	}
	c, err = parseConfig([]string{"--direct", "http://127.0.0.1:1", "--proxy", "http://127.0.0.1:2", "--only", "roundtrip,fanin"}, io.Discard)
	if err != nil || c.RTCalls != 4000 || !c.wants("fanin") || c.wants("large") || c.Timeout != 10*time.Second {
		t.Errorf("endpoints mode: %+v, %v", c, err)
	}
	for _, bad := range [][]string{
		{},
		{"--direct", "http://127.0.0.1:1"},
		{"--launch", "--direct", "http://127.0.0.1:1"},
		{"--launch", "--only", "speed"},
		{"--launch", "--rt-batch", "0"},
		{"--launch", "extra"},
	} {
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("parseConfig(%q) accepted", bad)
		}
	}
}
