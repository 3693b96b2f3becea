package relay

// InternalIDBase is the start of the relay's own id space, for the tests
// that check client ids next to it.
const InternalIDBase = internalIDBase

// StreamAfter is the size past which browser messages are streamed on.
const StreamAfter = streamAfter

// Exchange and RoundTrip are for the external tests and benchmarks of a
// relay with stages of other rooms (a journal's tap): exchange and
// roundTrip (exchange_test.go).
var (
	Exchange  = exchange
	RoundTrip = roundTrip
)
