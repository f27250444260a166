package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"syscall"
	"time"

	"executa.test/runtime/internal/executa"
)

// The test-only tools, as test/runtimes/test-plugin.json declares them; the same in every language.
var bindings = executa.Bindings{
	"echo":           executa.Bind(echo),
	"nothing":        executa.Bind(nothing),
	"fail":           executa.Bind(fail),
	"nan":            executa.Bind(nan),
	"slow":           executa.Bind(slow),
	"slow_async":     executa.Bind(slowAsync),
	"big":            executa.Bind(big),
	"size":           executa.Bind(size),
	"credential":     executa.Bind(credential),
	"context":        executa.Bind(invokeContext),
	"sample":         executa.Bind(sample),
	"storage":        executa.Bind(storage),
	"host_call":      executa.Bind(hostCall),
	"print":          executa.Bind(print),
	"lone_surrogate": executa.Bind(loneSurrogate),
	"service":        executa.Bind(service),
}

type object = map[string]any

func echo(_ context.Context, args object) (object, error) { return args, nil }

func nothing(context.Context, struct{}) (any, error) { return nil, nil }

// unprintable cannot even be described: its Error method panics.
type unprintable struct{}

func (unprintable) Error() string { panic("no message for you") }

func fail(_ context.Context, args struct{ Kind string }) (any, error) {
	switch args.Kind {
	case "tool":
		return nil, executa.NewToolError("it failed as asked")
	case "crash":
		return nil, errors.New("boom")
	case "hostile":
		panic(unprintable{})
	}
	failed := make(chan error)
	go func() { failed <- unprintable{} }()
	return nil, <-failed
}

func nan(_ context.Context, args struct{ Which string }) (object, error) {
	values := map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)}
	return object{"value": values[args.Which]}, nil
}

type sleep struct {
	Ms int `json:"ms"`
}

func slow(_ context.Context, args sleep) (object, error) {
	time.Sleep(time.Duration(args.Ms) * time.Millisecond)
	return object{"slept": args.Ms}, nil
}

func slowAsync(ctx context.Context, args sleep) (object, error) {
	select {
	case <-time.After(time.Duration(args.Ms) * time.Millisecond):
		return object{"slept": args.Ms}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func big(_ context.Context, args struct{ Bytes int }) (string, error) {
	return strings.Repeat("x", args.Bytes), nil
}

func size(_ context.Context, args struct{ Text string }) (object, error) {
	return object{"bytes": len(args.Text)}, nil
}

func credential(ctx context.Context, args struct{ Name string }) (object, error) {
	if value, ok := executa.FromContext(ctx).Credential(args.Name); ok {
		return object{"value": value}, nil
	}
	return object{"value": nil}, nil
}

func invokeContext(ctx context.Context, _ struct{}) (object, error) {
	inv := executa.FromContext(ctx)
	return object{"tool": inv.Tool, "invoke_id": inv.InvokeID, "deadline_ms": inv.Deadline.UnixMilli()}, nil
}

func sample(ctx context.Context, args struct{ Prompt string }) (*executa.SampleResult, error) {
	return executa.FromContext(ctx).Host.Sample(ctx, executa.SampleRequest{Prompt: args.Prompt})
}

type storageArgs struct {
	Key   string         `json:"key"`
	Value map[string]any `json:"value"`
}

func storage(ctx context.Context, args storageArgs) (object, error) {
	host := executa.FromContext(ctx).Host
	written, err := host.StorageSet(ctx, args.Key, args.Value, executa.StorageOptions{})
	if err != nil {
		return nil, err
	}
	item, err := host.StorageGet(ctx, args.Key, executa.StorageOptions{})
	if err != nil {
		return nil, err
	}
	return object{"set": written, "get": item}, nil
}

type hostCallArgs struct {
	Method    string         `json:"method"`
	Params    map[string]any `json:"params"`
	TimeoutMs int            `json:"timeout_ms"`
}

func hostCall(ctx context.Context, args hostCallArgs) (json.RawMessage, error) {
	if args.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(args.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	var params any
	if args.Params != nil {
		params = args.Params
	}
	return executa.FromContext(ctx).Host.Request(ctx, args.Method, params)
}

func print(context.Context, struct{}) (object, error) {
	fmt.Println("print: fmt.Println")
	os.Stdout.WriteString("print: os.Stdout\n")
	stdoutCopy.WriteString("print: a copy of os.Stdout taken before main\n")
	syscall.Write(1, []byte("print: syscall.Write(1)\n"))
	return object{"ok": true}, nil
}

func loneSurrogate(context.Context, struct{}) (object, error) {
	return object{"text": "a" + string(rune(0xD800)) + "b"}, nil
}
