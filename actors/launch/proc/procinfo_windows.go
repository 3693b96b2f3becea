package proc

// ProcessInfo is not available on Windows yet: callers treat the browser as
// unverified and leave it alone.
func ProcessInfo(int) (ProcInfo, error) { return ProcInfo{}, ErrNoProcessTable }

// Processes is not available on Windows yet.
func Processes() ([]ProcInfo, error) { return nil, ErrNoProcessTable }
