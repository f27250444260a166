package executa

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ToolError is an expected failure to report to the model: the invoke is answered
// {"success": false, "error": <message>}. Return it for bad input, a missing credential
// and the like; any other error is answered as an internal error (-32603).
type ToolError struct {
	Message string
	wrapped error
}

// NewToolError returns a ToolError with the message.
func NewToolError(message string) error {
	return &ToolError{Message: message}
}

// ToolErrorf returns a ToolError with a formatted message. A %w verb wraps its error, so
// errors.Is and errors.As see through the ToolError.
func ToolErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &ToolError{Message: err.Error(), wrapped: errors.Unwrap(err)}
}

func (e *ToolError) Error() string { return e.Message }

// Unwrap returns the error a %w verb wrapped, if any.
func (e *ToolError) Unwrap() error { return e.wrapped }

// HostError is a failed reverse request: the host answered with an error, the wait timed
// out, or the runtime refused the call locally (protocol 2.0 not negotiated, or the
// manifest lacks the capability). A HostError a tool does not handle is answered
// {"success": false, "error": "<method> failed: [<code>] <message>"}.
type HostError struct {
	// Code is the JSON-RPC error code, e.g. -32008 NOT_NEGOTIATED, -32001 NOT_GRANTED, -32005 TIMEOUT.
	Code int
	// Message is the error's message, as the host sent it.
	Message string
	// Data is the error's data, if the host sent any.
	Data json.RawMessage
	// Method is the reverse-RPC method that failed, e.g. "sampling/createMessage".
	Method string
}

func (e *HostError) Error() string {
	method := e.Method
	if method == "" {
		method = "host request"
	}
	return fmt.Sprintf("%s failed: [%d] %s", method, e.Code, e.Message)
}

// JSON-RPC error codes the runtime answers with.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeShuttingDown answers a request that arrives while the plugin is stopping.
	CodeShuttingDown = -32000
)

// Reverse-RPC error codes: the ones the runtime raises locally, and the ones a tool
// commonly checks for.
const (
	CodeSamplingNotGranted    = -32001
	CodeSamplingTimeout       = -32005
	CodeSamplingNotNegotiated = -32008
	CodeSamplingUserDenied    = -32009
	CodeStorageNotGranted     = -32021
	CodeStorageTimeout        = -32030
)
