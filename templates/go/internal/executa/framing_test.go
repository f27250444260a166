package executa

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// lines reads every frame of input with a limit of max bytes; oversize lines read as "!".
func lines(t *testing.T, r io.Reader, max int) []string {
	t.Helper()
	fr := newFrameReader(r, max)
	var out []string
	for {
		line, oversize, err := fr.next()
		switch {
		case oversize:
			out = append(out, "!")
		case err == io.EOF:
			return out
		case err != nil:
			t.Fatal(err)
		default:
			out = append(out, string(line))
		}
	}
}

func TestFrameReaderSplitsLinesAndKeepsALastLineWithoutNewline(t *testing.T) {
	got := lines(t, strings.NewReader("a\n\nbc\r\nlast"), 10)
	if want := []string{"a", "", "bc\r", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
}

func TestFrameReaderDiscardsLinesOverTheLimitUpToTheirNewline(t *testing.T) {
	input := "12345\n123456\n" + strings.Repeat("x", 100) + "\nok\n" + strings.Repeat("y", 7)
	for name, r := range map[string]io.Reader{
		"whole":        strings.NewReader(input),
		"byte by byte": iotest.OneByteReader(strings.NewReader(input)),
	} {
		got := lines(t, r, 5)
		if want := "12345|!|!|ok|!"; strings.Join(got, "|") != want {
			t.Fatalf("%s: got %q", name, got)
		}
	}
}

func TestFrameReaderReadsLinesLongerThanItsBuffer(t *testing.T) {
	long := bytes.Repeat([]byte("z"), 200_000)
	got := lines(t, bytes.NewReader(append(append(long, '\n'), "next\n"...)), MaxFrameBytes)
	if len(got) != 2 || got[0] != string(long) || got[1] != "next" {
		t.Fatalf("got %d lines", len(got))
	}
}
