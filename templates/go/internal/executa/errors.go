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
// out, or the runtime refused the call locally (protocol 2.0 not negotiated, the manifest
// lacks the capability, or the request breaks a limit the host would refuse). A HostError
// a tool does not handle is answered
// {"success": false, "error": "<method> failed: [<code> <codeName>] <message>"}.
//
//	var hostErr *executa.HostError
//	if errors.As(err, &hostErr) && hostErr.Code == executa.CodeStoragePreconditionFailed { ... }
type HostError struct {
	// Code is the JSON-RPC error code, e.g. -32008 NOT_NEGOTIATED, -32001 NOT_GRANTED, -32005 TIMEOUT.
	Code int
	// CodeName is the code's name in the method's namespace, e.g. "PRECONDITION_FAILED"; for
	// -32602 the host's data.errorCode (e.g. "UNKNOWN_INVOKE_CONTEXT"); "UNKNOWN" for a code
	// the namespace does not define.
	CodeName string
	// Message is the error's message, as the host sent it.
	Message string
	// Data is the error's data, if the host sent any.
	Data json.RawMessage
	// Method is the reverse-RPC method that failed, e.g. "sampling/createMessage".
	Method string
}

func (e *HostError) Error() string {
	method, name := e.Method, e.CodeName
	if method == "" {
		method = "host request"
	}
	if name == "" {
		name = "UNKNOWN"
	}
	return fmt.Sprintf("%s failed: [%d %s] %s", method, e.Code, name, e.Message)
}

// WebError is a failed web/* request. The platform names web errors by data.errorCode
// ("invalid_arg", "not_implemented", "permission_denied", ...), not by codes of their own:
// ErrorCode is that name (the runtime's own for a local refusal: "permission_denied",
// "timeout", "invalid_arg"), the same as CodeName. errors.As finds its HostError too.
type WebError struct {
	HostError
	ErrorCode string
}

// Unwrap gives the HostError, so that errors.As(err, &hostErr) matches a WebError too.
func (e *WebError) Unwrap() error { return &e.HostError }

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

// Reverse-RPC error codes of every namespace (long reference §7); files/* shares storage's.
const (
	CodeSamplingNotGranted                = -32001
	CodeSamplingQuotaExceeded             = -32002
	CodeSamplingProviderError             = -32003
	CodeSamplingInvalidRequest            = -32004
	CodeSamplingTimeout                   = -32005
	CodeSamplingMaxCallsExceeded          = -32006
	CodeSamplingMaxTokensExceeded         = -32007
	CodeSamplingNotNegotiated             = -32008
	CodeSamplingUserDenied                = -32009
	CodeSamplingUnsupportedResponseFormat = -32010

	CodeStorageNotGranted         = -32021
	CodeStorageNotFound           = -32022
	CodeStoragePreconditionFailed = -32023
	CodeStorageQuotaExceeded      = -32024
	CodeStorageValueTooLarge      = -32025
	CodeStorageRateLimited        = -32026
	CodeStorageInvalidPath        = -32027
	CodeStorageInvalidRequest     = -32028
	CodeStorageUpstream           = -32029
	CodeStorageTimeout            = -32030

	CodeAgentNotGranted      = -32041
	CodeAgentSessionNotFound = -32042
	CodeAgentInvalidRequest  = -32043
	CodeAgentSubmodeMismatch = -32044
	CodeAgentQuotaExceeded   = -32045
	CodeAgentProviderError   = -32046
	CodeAgentRateLimited     = -32047
	CodeAgentToolNotGranted  = -32048

	CodeImageNotGranted           = -32101
	CodeImageQuotaExceeded        = -32102
	CodeImageProviderError        = -32103
	CodeImageInvalidRequest       = -32104
	CodeImageTimeout              = -32105
	CodeImageMaxImagesExceeded    = -32106
	CodeImageNotNegotiated        = -32107
	CodeImageUserDenied           = -32108
	CodeImageNoModelAvailable     = -32109
	CodeImageStorageError         = -32110
	CodeImageEditNotSupported     = -32311
	CodeImageMaskUnsupported      = -32312
	CodeImageNUnsupported         = -32313
	CodeImageReferenceFetchFailed = -32314

	CodeUploadNotGranted       = -32201
	CodeUploadQuotaExceeded    = -32202
	CodeUploadInvalidRequest   = -32203
	CodeUploadTooLarge         = -32204
	CodeUploadMimeRejected     = -32205
	CodeUploadPurposeRejected  = -32206
	CodeUploadStorageError     = -32207
	CodeUploadTimeout          = -32208
	CodeUploadUserDenied       = -32209
	CodeUploadNotNegotiated    = -32210
	CodeUploadMaxFilesExceeded = -32211
	CodeUploadNotFound         = -32212
	CodeUploadPresignFailed    = -32213

	CodeEmbeddingsNotGranted        = -32501
	CodeEmbeddingsQuotaExceeded     = -32502
	CodeEmbeddingsProviderError     = -32503
	CodeEmbeddingsInvalidRequest    = -32504
	CodeEmbeddingsTimeout           = -32505
	CodeEmbeddingsMaxTokensExceeded = -32506
	CodeEmbeddingsNotNegotiated     = -32507
	CodeEmbeddingsUserDenied        = -32508
)
