package executa

import (
	"context"
)

// FilesOptions are the optional fields of the files calls; each call reads the ones that
// apply to it. The zero value sends no scope (the host's default, "app", applies).
type FilesOptions struct {
	// Scope is "tool", "user" or "app", as for storage; "" sends none (the host's default applies).
	Scope string `json:"scope,omitempty"`
	// ContentType and Metadata describe the bytes of FilesUpload.
	ContentType string         `json:"content_type,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	// ExpiresIn is how long a FilesDownloadURL link works, in seconds (0: the host's default).
	ExpiresIn int `json:"expires_in,omitempty"`
	// Prefix, Cursor and Limit page and filter FilesList.
	Prefix string `json:"prefix,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// FileInfo describes a stored file.
type FileInfo struct {
	Path        string `json:"path"`
	SizeBytes   int64  `json:"size_bytes"`
	ContentType string `json:"content_type,omitempty"`
	Etag        string `json:"etag,omitempty"`
	UpdatedAt   string `json:"updated_at,omitempty"`
}

// FileUploaded is the host's confirmation of a FilesUpload.
type FileUploaded struct {
	HostResult
	OK    bool   `json:"ok"`
	Scope string `json:"scope,omitempty"`
	FileInfo
}

// FileURL is a link to read a file, until ExpiresAt.
type FileURL struct {
	HostResult
	URL       string `json:"url"`
	ExpiresAt string `json:"expires_at"`
}

// FilesListing is a files/list result; NextCursor is "" on the last page.
type FilesListing struct {
	HostResult
	Items      []FileInfo `json:"items"`
	NextCursor string     `json:"next_cursor"`
}

type filesParams struct {
	Path      string `json:"path,omitempty"`
	Scope     string `json:"scope,omitempty"`
	SizeBytes *int   `json:"size_bytes,omitempty"`
	Etag      string `json:"etag,omitempty"`
	// download_url: hosts read ttl_seconds, the reference names expires_in; both are sent.
	TTLSeconds int `json:"ttl_seconds,omitempty"`
	FilesOptions
}

// FilesUpload stores bytes at path: files/upload_begin, an HTTP PUT of the bytes to the URL
// the host gave, files/upload_complete. It needs "aps.files" in host_capabilities.
func (h *HostClient) FilesUpload(ctx context.Context, path string, data []byte, opts FilesOptions) (*FileUploaded, error) {
	const begin = "files/upload_begin"
	scope, err := h.checkedScope(begin, opts.Scope)
	if err != nil {
		return nil, err
	}
	size := len(data)
	var offer putOffer
	beginParams := filesParams{Path: path, Scope: scope, SizeBytes: &size, FilesOptions: FilesOptions{ContentType: opts.ContentType, Metadata: opts.Metadata}}
	if err := h.call(ctx, begin, beginParams, &offer); err != nil {
		return nil, err
	}
	etag, err := h.put(ctx, begin, CodeStorageUpstream, offer, data)
	if err != nil {
		return nil, err
	}
	var done FileUploaded
	complete := filesParams{Path: path, Scope: scope, SizeBytes: &size, Etag: etag, FilesOptions: FilesOptions{ContentType: opts.ContentType}}
	if err := h.call(ctx, "files/upload_complete", complete, &done); err != nil {
		return nil, err
	}
	return &done, nil
}

// FilesDownloadURL returns a link to read the file at path (files/download_url).
func (h *HostClient) FilesDownloadURL(ctx context.Context, path string, opts FilesOptions) (*FileURL, error) {
	const method = "files/download_url"
	scope, err := h.checkedScope(method, opts.Scope)
	if err != nil {
		return nil, err
	}
	var answer struct {
		FileURL
		GetURL string `json:"get_url"`
	}
	params := filesParams{Path: path, Scope: scope, TTLSeconds: opts.ExpiresIn, FilesOptions: FilesOptions{ExpiresIn: opts.ExpiresIn}}
	if err := h.call(ctx, method, params, &answer); err != nil {
		return nil, err
	}
	if answer.URL == "" {
		answer.URL = answer.GetURL
	}
	return &answer.FileURL, nil
}

// FilesList lists files (files/list), one page at a time.
func (h *HostClient) FilesList(ctx context.Context, opts FilesOptions) (*FilesListing, error) {
	const method = "files/list"
	scope, err := h.checkedScope(method, opts.Scope)
	if err != nil {
		return nil, err
	}
	var l FilesListing
	params := filesParams{Scope: scope, FilesOptions: FilesOptions{Prefix: opts.Prefix, Cursor: opts.Cursor, Limit: opts.Limit}}
	if err := h.call(ctx, method, params, &l); err != nil {
		return nil, err
	}
	if l.Items == nil {
		l.Items = []FileInfo{}
	}
	return &l, nil
}

// FilesDelete deletes the file at path (files/delete).
func (h *HostClient) FilesDelete(ctx context.Context, path string, opts FilesOptions) (*Deleted, error) {
	const method = "files/delete"
	scope, err := h.checkedScope(method, opts.Scope)
	if err != nil {
		return nil, err
	}
	var d Deleted
	if err := h.call(ctx, method, filesParams{Path: path, Scope: scope}, &d); err != nil {
		return nil, err
	}
	return &d, nil
}
