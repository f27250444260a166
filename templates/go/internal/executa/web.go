package executa

import (
	"context"
	"strconv"
	"strings"
)

// WebSearchRequest is a web/search request: Query, and the options the host reads when given.
type WebSearchRequest struct {
	// Query is what to search for (required).
	Query string `json:"query"`
	// MaxResults is how many results (0: the host's default; the host caps it).
	MaxResults int `json:"max_results,omitempty"`
	// SearchDepth is "basic" or "advanced", where the host's provider has both.
	SearchDepth string `json:"search_depth,omitempty"`
	// Topic is "general" or "news".
	Topic string `json:"topic,omitempty"`
	// TimeRange is "day", "week", "month" or "year".
	TimeRange string `json:"time_range,omitempty"`
	// Region is a region code, e.g. "us-en".
	Region         string   `json:"region,omitempty"`
	IncludeDomains []string `json:"include_domains,omitempty"`
	ExcludeDomains []string `json:"exclude_domains,omitempty"`
}

// WebSearchHit is one search result.
type WebSearchHit struct {
	Title       string   `json:"title"`
	URL         string   `json:"url"`
	Snippet     string   `json:"snippet"`
	Site        string   `json:"site,omitempty"`
	PublishedAt *string  `json:"published_at,omitempty"`
	Score       *float64 `json:"score,omitempty"`
}

// WebSearchResult is a web/search result.
type WebSearchResult struct {
	HostResult
	Results       []WebSearchHit `json:"results"`
	ProviderTier  string         `json:"provider_tier,omitempty"`
	QuotaConsumed float64        `json:"quota_consumed"`
}

// WebFetchRequest is a web/fetch request: URL (or URLs, up to 10 pages at once) and options.
type WebFetchRequest struct {
	// URL is the page to fetch; or give URLs.
	URL  string   `json:"-"`
	URLs []string `json:"urls"`
	// Format is the text format the host extracts, e.g. "markdown" or "text".
	Format string `json:"format,omitempty"`
	// MaxChars is the most characters of each page (0: the host's default, 20,000).
	MaxChars int `json:"max_chars,omitempty"`
	// FetchTimeoutMS is how long the host may take to fetch each page (timeout_ms on the wire).
	FetchTimeoutMS int `json:"timeout_ms,omitempty"`
}

// WebPage is one fetched page; OK is false, with an Error such as "HTTP_404", "SSRF_BLOCKED"
// or "TIMEOUT", when that page failed.
type WebPage struct {
	URL       string  `json:"url"`
	OK        bool    `json:"ok"`
	FinalURL  string  `json:"final_url,omitempty"`
	Title     *string `json:"title,omitempty"`
	Content   string  `json:"content,omitempty"`
	Truncated bool    `json:"truncated,omitempty"`
	Error     *string `json:"error,omitempty"`
}

// WebFetchResult is a web/fetch result: one page per URL.
type WebFetchResult struct {
	HostResult
	Pages         []WebPage `json:"pages"`
	QuotaConsumed float64   `json:"quota_consumed"`
}

// WebSearch searches the web through the host (web/search). It needs "web.search" in
// host_capabilities. A missing query is refused before sending; errors are a *WebError (which
// errors.As also finds as a *HostError), named by the host's data.errorCode.
func (h *HostClient) WebSearch(ctx context.Context, req WebSearchRequest) (*WebSearchResult, error) {
	const method = "web/search"
	if strings.TrimSpace(req.Query) == "" {
		return nil, h.invalid(method, `query is required: give the words to search for, e.g. WebSearch(ctx, WebSearchRequest{Query: "executa plugins"})`)
	}
	var result WebSearchResult
	if err := h.call(ctx, method, req, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// WebFetch fetches pages through the host (web/fetch) and extracts their text; a failed page
// does not fail the others. It needs "web.fetch" in host_capabilities. A missing URL is
// refused before sending; errors are a *WebError, named by the host's data.errorCode.
func (h *HostClient) WebFetch(ctx context.Context, req WebFetchRequest) (*WebFetchResult, error) {
	const method = "web/fetch"
	if req.URLs == nil && req.URL != "" {
		req.URLs = []string{req.URL}
	}
	if len(req.URLs) == 0 {
		return nil, h.invalid(method, `url is required: give the page to fetch, e.g. WebFetch(ctx, WebFetchRequest{URL: "https://example.com"}), or URLs`)
	}
	for i, u := range req.URLs {
		if strings.TrimSpace(u) == "" {
			return nil, h.invalid(method, "urls["+strconv.Itoa(i)+"] is not a URL: give each page as a non-empty string")
		}
	}
	var result WebFetchResult
	if err := h.call(ctx, method, req, &result); err != nil {
		return nil, err
	}
	return &result, nil
}
