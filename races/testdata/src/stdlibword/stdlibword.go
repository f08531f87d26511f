// Package main: a request's messages, each made and filled in per
// request, their fields decoded by encoding/json. A standard-library
// function that hands nothing to other goroutines keeps nothing of what
// it is given once it returns (the same word the escape analysis takes),
// so decoding into a message's field does not publish the message.
package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
)

type message struct {
	Method string
	ID     json.RawMessage
	Error  *wireError
	batch  bool
	err    error
}

var errBad = errors.New("bad message")

func (m *message) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func (m *message) parse(data []byte) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		m.fail(errBad)
		return
	}
	*m = message{} // reset
	for key, val := range obj {
		switch key {
		case "method":
			if json.Unmarshal(val, &m.Method) != nil {
				m.fail(errBad)
			}
		case "id":
			m.ID = val
		case "error":
			if json.Unmarshal(val, &m.Error) != nil {
				m.fail(errBad)
			}
		}
	}
}

type wireError struct {
	Code    int
	Message string
}

type messages []*message

func (ms *messages) parse(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return err
	}
	for _, raw := range raws {
		m := new(message)
		m.parse(raw)
		m.batch = len(raws) > 1
		*ms = append(*ms, m)
	}
	return nil
}

type stats struct {
	mu      sync.Mutex
	methods map[string]int
	last    string
}

var st = &stats{methods: map[string]int{}}

func serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var ms messages
	if ms.parse(body) != nil {
		return
	}
	for _, m := range ms {
		if m.err != nil || m.batch { // each request's own messages: not reported
			continue
		}
		st.mu.Lock()
		st.methods[m.Method]++
		st.mu.Unlock()
		st.last = m.Method // want `stats.last written in serve \(handler /rpc: serve\) races with its write in serve`
	}
}

// client hands the replies it parses to a goroutine that files them:
// the messages of this kind are shared, once handed over.
type client struct {
	mu      sync.Mutex
	pending map[string]*message
}

func (c *client) accept(data []byte) {
	var in messages
	if in.parse(data) != nil {
		return
	}
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range in {
			c.pending[string(m.ID)] = m
		}
	}()
}

func main() {
	c := &client{pending: map[string]*message{}}
	go func() {
		for {
			c.accept([]byte(`[{"id":1}]`))
		}
	}()
	http.HandleFunc("/rpc", serve)
	http.ListenAndServe(":8080", nil)
}
