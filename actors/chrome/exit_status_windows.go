package chrome

import "os"

func exitStatusOf(ps *os.ProcessState) ExitStatus { return ExitStatus{Code: ps.ExitCode()} }
