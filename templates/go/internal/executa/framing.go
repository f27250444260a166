package executa

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxFrameBytes is the longest frame, in bytes without its line ending (16 MiB).
const MaxFrameBytes = 16 * 1024 * 1024

var bom = []byte{0xef, 0xbb, 0xbf}

// frameReader splits a byte stream into lines. It reads with a bufio.Reader (a
// bufio.Scanner would stop at its token limit), keeps at most MaxFrameBytes of one line,
// and discards a longer line up to its newline. A BOM at the very start is dropped.
type frameReader struct {
	r     *bufio.Reader
	max   int
	buf   []byte
	first bool
}

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64*1024), max: max, first: true}
}

// next returns the next line without its line ending (`\n` or `\r\n`); it is valid until
// the next call. oversize reports a line longer than the limit, which was discarded. At
// the end of the input a last line without a newline still counts; then err is io.EOF
// (or the read error).
func (fr *frameReader) next() (line []byte, oversize bool, err error) {
	line, oversize, err = fr.read()
	if fr.first && (line != nil || oversize) {
		fr.first = false
		line = bytes.TrimPrefix(line, bom)
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1] // part of the line ending, not of the frame
	}
	if len(line) > fr.max {
		return nil, true, nil
	}
	return line, oversize, err
}

// buffered reports how many bytes of input are already read and waiting.
func (fr *frameReader) buffered() int { return fr.r.Buffered() }

func (fr *frameReader) read() (line []byte, oversize bool, err error) {
	if cap(fr.buf) > 1024*1024 {
		fr.buf = nil // do not keep a big frame's memory around
	}
	fr.buf = fr.buf[:0]
	limit := fr.max + 1 // the frame and a '\r'
	discarding := false
	for {
		chunk, err := fr.r.ReadSlice('\n')
		complete := err == nil
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		if !discarding {
			switch {
			case len(fr.buf)+len(chunk) > limit:
				discarding = true
				fr.buf = fr.buf[:0]
			case complete && len(fr.buf) == 0:
				return chunk, false, nil // the common case: the whole line is in the buffer
			default:
				fr.buf = append(fr.buf, chunk...)
			}
		}
		switch {
		case complete:
			if discarding {
				return nil, true, nil
			}
			return fr.buf, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case discarding:
			return nil, true, nil // the next call reports the end
		case len(fr.buf) > 0:
			return fr.buf, false, nil
		default:
			return nil, false, err
		}
	}
}
