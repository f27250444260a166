package executa

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// InlineUploadMaxBytes is the most bytes an Upload sends inline (8 MiB); a larger one goes
// negotiate, an HTTP PUT, and confirm.
const InlineUploadMaxBytes = 8 * 1024 * 1024

// UploadOptions describe the bytes of an Upload.
type UploadOptions struct {
	Filename string `json:"filename"`
	MimeType string `json:"mime_type"`
	// Purpose is sent as given; the host accepts "image_input", "image_reference" and "user_artifact".
	Purpose  string         `json:"purpose,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// UploadResult is where the host keeps an upload, for a while.
type UploadResult struct {
	HostResult
	DownloadURL string `json:"download_url"`
	R2Key       string `json:"r2_key"`
	ExpiresAt   string `json:"expires_at"`
	SizeBytes   int64  `json:"size_bytes"`
}

// putOffer is where to PUT the bytes: a presigned URL and the headers to send with them.
type putOffer struct {
	PutURL  string          `json:"put_url"`
	Headers json.RawMessage `json:"headers"` // an object of strings; anything else is left out
	R2Key   string          `json:"r2_key"`  // host/uploadFile
}

// Upload hands bytes to the host for a while (host/uploadFile): inline up to 8 MiB, else
// negotiate, an HTTP PUT of the bytes, and confirm. It needs "host.upload".
func (h *HostClient) Upload(ctx context.Context, data []byte, opts UploadOptions) (*UploadResult, error) {
	const method = "host/uploadFile"
	var result UploadResult
	if len(data) <= InlineUploadMaxBytes {
		params := struct {
			Mode string `json:"mode"`
			UploadOptions
			ContentB64 string `json:"content_b64"`
		}{"inline", opts, base64.StdEncoding.EncodeToString(data)}
		if err := h.call(ctx, method, params, &result); err != nil {
			return nil, err
		}
		return &result, nil
	}
	negotiate := struct {
		Mode string `json:"mode"`
		UploadOptions
		SizeBytes int `json:"size_bytes"`
	}{"negotiate", opts, len(data)}
	var offer putOffer
	if err := h.call(ctx, method, negotiate, &offer); err != nil {
		return nil, err
	}
	if _, err := h.put(ctx, method, CodeUploadStorageError, offer, data); err != nil {
		return nil, err
	}
	confirm := struct {
		Mode  string `json:"mode"`
		R2Key string `json:"r2_key"`
	}{"confirm", offer.R2Key}
	if err := h.call(ctx, method, confirm, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// put sends the bytes to the host's presigned URL with its headers, within the PUT timeout
// (120 s) and the invoke's deadline, and returns the response's ETag. No answer, or a status
// other than 200 or 201, fails with failCode (the namespace's TIMEOUT when the wait ran out).
func (h *HostClient) put(ctx context.Context, method string, failCode int, offer putOffer, data []byte) (string, error) {
	if u, err := url.Parse(offer.PutURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", h.fail(method, failCode, "the host's put_url is not an http(s) URL: "+jsonQuote(offer.PutURL))
	}
	const what = "the PUT of the bytes"
	deadline := h.deadlineFor(ctx, putTimeout)
	wait := time.Until(deadline)
	if wait <= 0 {
		return "", h.timedOut(method, what, wait)
	}
	putCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	headers, _ := decodeObject(offer.Headers)
	stringHeaders := make(map[string]string, len(headers))
	for name, value := range headers {
		var s string
		if jsonType(value) == "string" && json.Unmarshal(value, &s) == nil {
			stringHeaders[name] = s
		}
	}
	status, etag, err := httpPut(putCtx, offer.PutURL, stringHeaders, data)
	if err != nil {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return "", h.timedOut(method, what, wait)
		case ctx.Err() != nil:
			return "", ctx.Err()
		}
		return "", h.fail(method, failCode, what+" failed: "+err.Error())
	}
	if status != 200 && status != 201 {
		return "", h.fail(method, failCode, fmt.Sprintf("%s was answered HTTP %d", what, status))
	}
	return etag, nil
}
