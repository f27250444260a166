//go:build !executa_no_http

package executa

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
)

// httpPut sends data to putURL with headers and returns the answer's status and ETag. A
// request that got no answer is err, without the URL (a presigned URL must not reach logs).
func httpPut(ctx context.Context, putURL string, headers map[string]string, data []byte) (status int, etag string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, putURL, bytes.NewReader(data))
	if err != nil {
		return 0, "", err
	}
	for name, value := range headers {
		req.Header.Set(name, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err
		}
		return 0, "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, resp.Header.Get("ETag"), nil
}
