//go:build js && wasm

package edge

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"syscall/js"
)

// Register exposes the bridge to the JS entry as globalThis.arenaEdge:
// one function, serve(message), that returns a promise of the message's
// call's next Command. Messages are plain values:
//
//	{op: "request", id, method, url, headers: [[name, value]...], body: Uint8Array, livePage: bool}
//	{op: "scheduled", id, cron}
//	{op: "after", id}  (the jobs of Bridge.After, after an answer hinted them)
//	{op: "result", id, seq, result: {status, headers, body, size, success, error}}
//	{op: "cancel", id}
//
// The promise comes from Promise.withResolvers, so no js.Func is made or
// released per call (released callbacks are what broke earlier attempts).
// scheduled runs the cron jobs for a "scheduled" message.
func (b *Bridge) Register(h http.Handler, scheduled func(ctx context.Context) Response) {
	promise := js.Global().Get("Promise")
	serve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		pr := promise.Call("withResolvers")
		resolve, reject := pr.Get("resolve"), pr.Get("reject")
		if len(args) != 1 || args[0].Type() != js.TypeObject {
			reject.Invoke(js.Global().Get("Error").New("arenaEdge.serve: want one message object"))
			return pr.Get("promise")
		}
		msg := args[0]
		id := int64(msg.Get("id").Float())
		next := func(cmd Command) { resolve.Invoke(commandJS(cmd)) }
		var err error
		switch op := msg.Get("op").String(); op {
		case "request":
			var req *http.Request
			if req, err = requestFromJS(msg); err == nil {
				handler := h
				if msg.Get("livePage").Truthy() { // the front's own request (js/live.mjs)
					handler = LivePage(h)
				}
				err = b.ServeHTTP(id, handler, req)
			}
		case "scheduled":
			err = b.Start(id, scheduled)
		case "after":
			err = b.RunAfter(id)
		case "result":
			b.Deliver(id, int64(msg.Get("seq").Float()), resultFromJS(msg.Get("result")))
		case "cancel":
			b.Cancel(id)
			resolve.Invoke(js.Undefined())
			return pr.Get("promise")
		default:
			reject.Invoke(js.Global().Get("Error").New("arenaEdge.serve: unknown op " + op))
			return pr.Get("promise")
		}
		if err != nil {
			reject.Invoke(js.Global().Get("Error").New(err.Error()))
			return pr.Get("promise")
		}
		b.Next(id, next)
		return pr.Get("promise")
	})
	obj := js.Global().Get("Object").New()
	obj.Set("serve", serve)
	js.Global().Set("arenaEdge", obj)
}

func requestFromJS(msg js.Value) (*http.Request, error) {
	body := bytesFromJS(msg.Get("body"))
	req, err := http.NewRequest(msg.Get("method").String(), msg.Get("url").String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = headerFromJS(msg.Get("headers"))
	req.Host = req.URL.Host
	if h := req.Header.Get("Host"); h != "" {
		req.Host = h
	}
	req.RequestURI = req.URL.RequestURI()
	req.RemoteAddr = req.Header.Get("Cf-Connecting-Ip")
	if strings.Contains(req.RemoteAddr, ":") { // IPv6: keep SplitHostPort working
		req.RemoteAddr = "[" + req.RemoteAddr + "]"
	}
	req.RemoteAddr += ":0"
	return req, nil
}

func resultFromJS(v js.Value) Result {
	if v.IsUndefined() || v.IsNull() {
		return Result{Err: "no result"}
	}
	r := Result{Header: headerFromJS(v.Get("headers")), Body: bytesFromJS(v.Get("body"))}
	if s := v.Get("status"); s.Type() == js.TypeNumber {
		r.Status = s.Int()
	}
	if s := v.Get("size"); s.Type() == js.TypeNumber {
		r.Size = int64(s.Float())
	}
	if s := v.Get("success"); s.Type() == js.TypeBoolean {
		r.Success = s.Bool()
	}
	if e := v.Get("error"); e.Type() == js.TypeString {
		r.Err = e.String()
	}
	return r
}

func bytesFromJS(v js.Value) []byte {
	if v.Type() != js.TypeObject {
		return nil
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func bytesJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

func headerFromJS(v js.Value) http.Header {
	h := http.Header{}
	if v.Type() != js.TypeObject {
		return h
	}
	for i, n := 0, v.Length(); i < n; i++ {
		pair := v.Index(i)
		h.Add(pair.Index(0).String(), pair.Index(1).String())
	}
	return h
}

func headerJS(h http.Header) js.Value {
	a := js.Global().Get("Array").New()
	for name, values := range h {
		for _, v := range values {
			a.Call("push", []any{name, v})
		}
	}
	return a
}

func fetchJS(f *Fetch) map[string]any {
	return map[string]any{"method": f.Method, "url": f.URL, "headers": headerJS(f.Header), "body": bytesJS(f.Body), "timeoutMs": f.TimeoutMs}
}

func commandJS(cmd Command) js.Value {
	o := map[string]any{"id": cmd.ID, "seq": cmd.Seq, "kind": cmd.Kind}
	switch {
	case cmd.Fetch != nil:
		o["fetch"] = fetchJS(cmd.Fetch)
	case cmd.RateLimit != nil:
		o["ratelimit"] = map[string]any{"binding": cmd.RateLimit.Binding, "key": cmd.RateLimit.Key}
	case cmd.R2 != nil:
		op := cmd.R2
		o["r2"] = map[string]any{"binding": op.Binding, "op": op.Op, "key": op.Key, "from": op.From, "offset": op.Offset, "length": op.Length,
			"contentType": op.ContentType, "body": bytesJS(op.Body)}
	case cmd.Response != nil:
		r := cmd.Response
		hints := map[string]any{}
		for k, v := range r.Hints {
			hints[k] = v
		}
		deferred := make([]any, len(r.Deferred))
		for i := range r.Deferred {
			deferred[i] = fetchJS(&r.Deferred[i])
		}
		o["response"] = map[string]any{"status": r.Status, "headers": headerJS(r.Header), "body": bytesJS(r.Body),
			"hints": hints, "deferred": deferred}
	}
	return js.ValueOf(o)
}
