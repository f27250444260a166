package executa

import (
	"crypto/rand"
	"encoding/hex"
)

// randomHex returns 32 random hex digits: reverse-request ids and file-transport names.
func randomHex() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("executa: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
