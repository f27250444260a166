package executa

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
)

// randomHex returns 32 random hex digits: reverse-request ids.
func randomHex() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("executa: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// maxSafeInteger is 2^53-1: the largest integer every language holds exactly.
const maxSafeInteger = 1<<53 - 1

// requestID returns the id to answer with: a string (re-encoded, so a lone surrogate becomes
// U+FFFD), an integer within ±(2^53−1) in its plain form (1.0 and 1e0 are 1, -0 is 0), or
// null. ok is false for any other id.
func requestID(raw json.RawMessage) (id rawID, ok bool) {
	switch jsonType(raw) {
	case "null":
		return nullID, true
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nullID, false
		}
		b, _ := json.Marshal(s)
		return b, true
	case "number":
		n, ok := safeInteger(raw)
		if !ok {
			return nullID, false
		}
		return strconv.AppendInt(nil, n, 10), true
	}
	return nullID, false
}

// safeInteger returns a JSON number's value when it is an integer within ±(2^53−1).
func safeInteger(raw []byte) (int64, bool) {
	if bytes.IndexAny(raw, ".eE") < 0 {
		n, err := strconv.ParseInt(string(raw), 10, 64)
		return n, err == nil && n >= -maxSafeInteger && n <= maxSafeInteger
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	return int64(f), true
}

// shortestJSON writes a finite number as JavaScript does (Number::toString): the shortest
// digits that round-trip, in plain or exponent form by the same rules.
func shortestJSON(v float64) string {
	if v == 0 {
		return "0"
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	// d.ddddde±x: the digits, and the decimal point after n of them.
	mantissa, exponent, _ := bytes.Cut(strconv.AppendFloat(nil, v, 'e', -1, 64), []byte("e"))
	digits := string(bytes.Replace(mantissa, []byte("."), nil, 1))
	x, _ := strconv.Atoi(string(exponent))
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + string(bytes.Repeat([]byte("0"), n-k))
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + string(bytes.Repeat([]byte("0"), -n)) + digits
	}
	head := digits
	if k > 1 {
		head = digits[:1] + "." + digits[1:]
	}
	e := n - 1
	if e >= 0 {
		return sign + head + "e+" + strconv.Itoa(e)
	}
	return sign + head + "e-" + strconv.Itoa(-e)
}
