package executa

import (
	"encoding/json"
	"strings"
	"time"
)

// namespace holds the codes of one family of reverse-RPC methods (docs/host-services.md).
type namespace struct {
	names       map[int]string // code -> its name in this namespace (HostError.CodeName)
	refusalCode int            // a local refusal: protocol 2.0 not negotiated, or the capability is missing
	timeoutCode int
	invalidCode int // what the host would refuse, known before sending
	// errorCodes (web/* only): the platform names web errors by data.errorCode, not by codes of
	// their own; these are the names of the runtime's local refusal, timeout and invalid errors.
	errorCodes *localErrorCodes
}

type localErrorCodes struct{ refusal, timeout, invalid string }

// webNamespace is web/*: errors are named by the host's data.errorCode.
var webNamespace = &namespace{
	names:       map[int]string{CodeInvalidParams: "invalid_arg", CodeInternalError: "internal"},
	refusalCode: CodeInternalError, timeoutCode: CodeInternalError, invalidCode: CodeInvalidParams,
	errorCodes: &localErrorCodes{refusal: "permission_denied", timeout: "timeout", invalid: "invalid_arg"},
}

// localData is the data of a local error of the namespace (web errors carry their name there, as
// the platform's do); nil for the other namespaces.
func (ns *namespace) localData(name func(*localErrorCodes) string) json.RawMessage {
	if ns.errorCodes == nil {
		return nil
	}
	data, _ := json.Marshal(map[string]string{"errorCode": name(ns.errorCodes)})
	return data
}

// hostError is an error of the method in the namespace: a *WebError for web/*, else a *HostError.
func (ns *namespace) hostError(method string, code int, message string, data json.RawMessage) error {
	he := HostError{Code: code, CodeName: ns.codeName(code, data), Message: message, Data: data, Method: method}
	if ns.errorCodes != nil {
		return &WebError{HostError: he, ErrorCode: he.CodeName}
	}
	return &he
}

var samplingNamespace = &namespace{
	names: map[int]string{
		CodeSamplingNotGranted: "NOT_GRANTED", CodeSamplingQuotaExceeded: "QUOTA_EXCEEDED",
		CodeSamplingProviderError: "PROVIDER_ERROR", CodeSamplingInvalidRequest: "INVALID_REQUEST",
		CodeSamplingTimeout: "TIMEOUT", CodeSamplingMaxCallsExceeded: "MAX_CALLS_EXCEEDED",
		CodeSamplingMaxTokensExceeded: "MAX_TOKENS_EXCEEDED", CodeSamplingNotNegotiated: "NOT_NEGOTIATED",
		CodeSamplingUserDenied: "USER_DENIED", CodeSamplingUnsupportedResponseFormat: "UNSUPPORTED_RESPONSE_FORMAT",
	},
	refusalCode: CodeSamplingNotNegotiated, timeoutCode: CodeSamplingTimeout, invalidCode: CodeSamplingInvalidRequest,
}

// agentNamespace is agent/session.*: its own codes, and sampling's timeout and refusal.
var agentNamespace = &namespace{
	names: map[int]string{
		CodeAgentNotGranted: "NOT_GRANTED", CodeAgentSessionNotFound: "SESSION_NOT_FOUND",
		CodeAgentInvalidRequest: "INVALID_REQUEST", CodeAgentSubmodeMismatch: "SUBMODE_MISMATCH",
		CodeAgentQuotaExceeded: "QUOTA_EXCEEDED", CodeAgentProviderError: "PROVIDER_ERROR",
		CodeAgentRateLimited: "RATE_LIMITED", CodeAgentToolNotGranted: "TOOL_NOT_GRANTED",
		CodeSamplingTimeout: "TIMEOUT", CodeSamplingNotNegotiated: "NOT_NEGOTIATED",
	},
	refusalCode: CodeSamplingNotNegotiated, timeoutCode: CodeSamplingTimeout, invalidCode: CodeAgentInvalidRequest,
}

// storageNamespace is storage/* and files/*.
var storageNamespace = &namespace{
	names: map[int]string{
		CodeStorageNotGranted: "NOT_GRANTED", CodeStorageNotFound: "NOT_FOUND",
		CodeStoragePreconditionFailed: "PRECONDITION_FAILED", CodeStorageQuotaExceeded: "QUOTA_EXCEEDED",
		CodeStorageValueTooLarge: "VALUE_TOO_LARGE", CodeStorageRateLimited: "RATE_LIMITED",
		CodeStorageInvalidPath: "INVALID_PATH", CodeStorageInvalidRequest: "INVALID_REQUEST",
		CodeStorageUpstream: "UPSTREAM", CodeStorageTimeout: "TIMEOUT",
	},
	refusalCode: CodeStorageNotGranted, timeoutCode: CodeStorageTimeout, invalidCode: CodeStorageInvalidRequest,
}

var uploadNamespace = &namespace{
	names: map[int]string{
		CodeUploadNotGranted: "NOT_GRANTED", CodeUploadQuotaExceeded: "QUOTA_EXCEEDED",
		CodeUploadInvalidRequest: "INVALID_REQUEST", CodeUploadTooLarge: "TOO_LARGE",
		CodeUploadMimeRejected: "MIME_REJECTED", CodeUploadPurposeRejected: "PURPOSE_REJECTED",
		CodeUploadStorageError: "STORAGE_ERROR", CodeUploadTimeout: "TIMEOUT",
		CodeUploadUserDenied: "USER_DENIED", CodeUploadNotNegotiated: "NOT_NEGOTIATED",
		CodeUploadMaxFilesExceeded: "MAX_FILES_EXCEEDED", CodeUploadNotFound: "NOT_FOUND",
		CodeUploadPresignFailed: "PRESIGN_FAILED",
	},
	refusalCode: CodeUploadNotGranted, timeoutCode: CodeUploadTimeout, invalidCode: CodeUploadInvalidRequest,
}

var imageNamespace = &namespace{
	names: map[int]string{
		CodeImageNotGranted: "NOT_GRANTED", CodeImageQuotaExceeded: "QUOTA_EXCEEDED",
		CodeImageProviderError: "PROVIDER_ERROR", CodeImageInvalidRequest: "INVALID_REQUEST",
		CodeImageTimeout: "TIMEOUT", CodeImageMaxImagesExceeded: "MAX_IMAGES_EXCEEDED",
		CodeImageNotNegotiated: "NOT_NEGOTIATED", CodeImageUserDenied: "USER_DENIED",
		CodeImageNoModelAvailable: "NO_MODEL_AVAILABLE", CodeImageStorageError: "STORAGE_ERROR",
		CodeImageEditNotSupported: "EDIT_NOT_SUPPORTED", CodeImageMaskUnsupported: "MASK_UNSUPPORTED",
		CodeImageNUnsupported: "N_UNSUPPORTED", CodeImageReferenceFetchFailed: "REFERENCE_FETCH_FAILED",
	},
	refusalCode: CodeImageNotGranted, timeoutCode: CodeImageTimeout, invalidCode: CodeImageInvalidRequest,
}

var embeddingsNamespace = &namespace{
	names: map[int]string{
		CodeEmbeddingsNotGranted: "NOT_GRANTED", CodeEmbeddingsQuotaExceeded: "QUOTA_EXCEEDED",
		CodeEmbeddingsProviderError: "PROVIDER_ERROR", CodeEmbeddingsInvalidRequest: "INVALID_REQUEST",
		CodeEmbeddingsTimeout: "TIMEOUT", CodeEmbeddingsMaxTokensExceeded: "MAX_TOKENS_EXCEEDED",
		CodeEmbeddingsNotNegotiated: "NOT_NEGOTIATED", CodeEmbeddingsUserDenied: "USER_DENIED",
	},
	refusalCode: CodeEmbeddingsNotNegotiated, timeoutCode: CodeEmbeddingsTimeout, invalidCode: CodeEmbeddingsInvalidRequest,
}

// methodRule is how the runtime sends one method, or every method under a prefix.
type methodRule struct {
	method       string // a method, or a prefix ending in "/" or "."
	ns           *namespace
	capabilities []string // any of these manifest host_capabilities unlocks it
	timeout      time.Duration
}

// methodRules: the first that matches a method wins.
var methodRules = []methodRule{
	{"sampling/createMessage", samplingNamespace, []string{"llm.sample"}, 90 * time.Second},
	{"agent/complete", samplingNamespace, []string{"llm.sample"}, 120 * time.Second},
	{"agent/session.create", agentNamespace, agentSessionCapabilities, 30 * time.Second},
	{"agent/session.run", agentNamespace, agentSessionCapabilities, 300 * time.Second},
	{"agent/session.list", agentNamespace, agentSessionCapabilities, 15 * time.Second},
	{"agent/session.refresh", agentNamespace, agentSessionCapabilities, 15 * time.Second},
	{"agent/session.", agentNamespace, agentSessionCapabilities, 60 * time.Second},
	{"storage/", storageNamespace, kvCapabilities, 30 * time.Second},
	{"files/upload_begin", storageNamespace, filesCapabilities, 60 * time.Second},
	{"files/upload_complete", storageNamespace, filesCapabilities, 60 * time.Second},
	{"files/", storageNamespace, filesCapabilities, 30 * time.Second},
	{"host/uploadFile", uploadNamespace, []string{"host.upload"}, 120 * time.Second},
	{"image/generate", imageNamespace, []string{"llm.image"}, 120 * time.Second},
	{"image/edit", imageNamespace, []string{"llm.image.edit"}, 120 * time.Second},
	{"embeddings/create", embeddingsNamespace, []string{"llm.embed"}, 30 * time.Second},
	{"web/search", webNamespace, []string{"web.search"}, 30 * time.Second},
	{"web/fetch", webNamespace, []string{"web.fetch"}, 60 * time.Second},
}

// The capabilities that unlock each method: create-executa's src/protocol/capabilities.ts.
var (
	agentSessionCapabilities = []string{"llm.agent.auto", "llm.agent.fixed"}
	kvCapabilities           = []string{
		"aps.kv", "aps.scope.admin", "aps.scope.app.read", "aps.scope.app.write", "aps.scope.tool.read",
		"aps.scope.tool.write", "aps.scope.user.read", "aps.scope.user.write",
	}
	filesCapabilities = []string{"aps.files", "aps.scope.admin"}
)

// invokeIDMetadata are the methods whose host reads metadata.executa_invoke_id (the others'
// metadata is the caller's own, or none).
var invokeIDMetadata = map[string]bool{"sampling/createMessage": true, "agent/complete": true, "image/generate": true, "image/edit": true}

// otherMethods is a method of no namespace: no capability needed, sampling's codes.
var otherMethods = methodRule{"", samplingNamespace, nil, 90 * time.Second}

// uploadTimeouts: host/uploadFile waits by mode.
var uploadTimeouts = map[string]time.Duration{"inline": 120 * time.Second, "negotiate": 60 * time.Second, "confirm": 30 * time.Second}

// putTimeout bounds the HTTP PUT of an upload (host/uploadFile negotiate, files/upload_begin).
const putTimeout = 120 * time.Second

// ruleFor returns the rule of a method; params (JSON) picks host/uploadFile's timeout by mode.
func ruleFor(method string, params json.RawMessage) methodRule {
	for _, r := range methodRules {
		prefix := strings.HasSuffix(r.method, "/") || strings.HasSuffix(r.method, ".")
		if method != r.method && !(prefix && strings.HasPrefix(method, r.method)) {
			continue
		}
		if method == "host/uploadFile" {
			var p struct {
				Mode string `json:"mode"`
			}
			_ = json.Unmarshal(params, &p)
			if t, ok := uploadTimeouts[p.Mode]; ok {
				r.timeout = t
			}
		}
		return r
	}
	return otherMethods
}

// codeName is the name of code in the namespace (for -32602, and every web error, the host's
// data.errorCode), or UNKNOWN.
func (ns *namespace) codeName(code int, data json.RawMessage) string {
	if code == CodeInvalidParams || ns.errorCodes != nil {
		var d struct {
			ErrorCode string `json:"errorCode"`
		}
		if jsonType(data) == "object" && json.Unmarshal(data, &d) == nil && d.ErrorCode != "" {
			return d.ErrorCode
		}
	}
	if name, ok := ns.names[code]; ok {
		return name
	}
	return "UNKNOWN"
}
