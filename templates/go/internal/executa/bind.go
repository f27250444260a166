package executa

import (
	"context"
	"encoding/json"
	"fmt"
)

// Handler runs one tool: it gets the checked arguments (a JSON object in which every
// optional parameter the host left out carries its manifest default) and returns the
// value for the result's "data".
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Bindings maps tool names to their handlers. `executa manifest` writes them into
// executa_bindings.go.
type Bindings map[string]Handler

// Bind adapts a tool function to a Handler: the arguments JSON is decoded into A, and the
// function's result becomes the invoke's "data".
func Bind[A any, R any](f func(context.Context, A) (R, error)) Handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var args A
		if err := json.Unmarshal(raw, &args); err != nil {
			// The arguments passed the manifest's checks, so the Go type disagrees with the
			// manifest: a programmer error, answered -32603.
			return nil, fmt.Errorf("decoding the arguments into %T: %w (is manifest.json up to date? run `executa manifest`)", args, err)
		}
		return f(ctx, args)
	}
}
