package proc

import "os"

func ExitStatusOf(ps *os.ProcessState) ExitStatus { return ExitStatus{Code: ps.ExitCode()} }
