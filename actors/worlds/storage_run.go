package worlds

import "errors"

var errNotYet = errors.New("not yet")

// handleStorage answers the storage requests; false: m is not one.
func (r *run) handleStorage(m any) bool {
	switch m := m.(type) {
	case seedWorld:
		m.reply <- seededAnswer{err: errNotYet}
	case exportWorld:
		m.reply <- exported{err: errNotYet}
	case forgetWorld:
		m.reply <- errNotYet
	case keepAll:
		m.reply <- nil
	default:
		return false
	}
	return true
}
