//go:build js && wasm

package objects

import (
	"context"
	"errors"
	"syscall/js"
)

// NewR2BindingJS returns an R2Binding that calls binding (the Workers R2
// binding, env.RECORDINGS) directly through syscall/js. Use it only where
// the calling goroutine runs on its request's own JavaScript side: the
// fresh-instance build, where each request has a Go instance of its own.
// One Go instance serving many requests hands each R2Call to its
// request's side instead (the request bridge).
func NewR2BindingJS(binding js.Value) R2Binding { return jsBinding{binding} }

type jsBinding struct{ v js.Value }

// CallR2 implements R2Binding.
func (b jsBinding) CallR2(ctx context.Context, c R2Call) (R2Result, error) {
	if err := ctx.Err(); err != nil {
		return R2Result{}, err
	}
	var p js.Value
	switch c.Op {
	case "head":
		p = b.v.Call("head", c.Key)
	case "get":
		p = b.v.Call("get", c.Key, map[string]any{"range": map[string]any{"offset": c.Offset, "length": c.Length}})
	case "put":
		body := js.Global().Get("Uint8Array").New(len(c.Body))
		js.CopyBytesToJS(body, c.Body)
		p = b.v.Call("put", c.Key, body, map[string]any{"httpMetadata": map[string]any{"contentType": c.ContentType}})
	case "delete":
		p = b.v.Call("delete", c.Key)
	case "copy":
		src, err := await(b.v.Call("get", c.From))
		if err != nil {
			return R2Result{}, err
		}
		if src.IsNull() || src.IsUndefined() {
			return R2Result{}, nil
		}
		p = b.v.Call("put", c.Key, src.Get("body"), map[string]any{"httpMetadata": src.Get("httpMetadata")})
	default:
		return R2Result{}, errors.New("objects: unknown R2 op " + c.Op)
	}
	obj, err := await(p)
	if err != nil || c.Op == "delete" || c.Op == "put" {
		return R2Result{}, err
	}
	if obj.IsNull() || obj.IsUndefined() {
		return R2Result{}, nil
	}
	res := R2Result{Found: true, Size: int64(obj.Get("size").Float())}
	if c.Op == "get" {
		buf, err := await(obj.Call("arrayBuffer"))
		if err != nil {
			return R2Result{}, err
		}
		arr := js.Global().Get("Uint8Array").New(buf)
		res.Body = make([]byte, arr.Get("byteLength").Int())
		js.CopyBytesToGo(res.Body, arr)
	}
	return res, nil
}

// await waits for a promise.
func await(p js.Value) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- outcome{v: args[0]}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- outcome{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then).Call("catch", catch)
	o := <-done
	return o.v, o.err
}
