package windows

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// WindowsProc is one Windows process as Win32_Process describes it.
type Proc struct {
	ProcessId       int
	ParentProcessId int
	Name            string
	ExecutablePath  string
	CommandLine     string
}

// windowsBrowserExes are the executable names of the Windows browsers.
var windowsBrowserExes = []string{"chrome.exe", "msedge.exe", "brave.exe"}

// WindowsProcesses lists the Windows browser processes with their command
// lines (list.ps1).
func Processes(ctx context.Context, ps wsl.PowerShell) ([]Proc, error) {
	out, err := ps.Run(ctx, wsl.ScriptList, wsl.Param{Name: "Names", Value: strings.Join(windowsBrowserExes, ",")})
	if err != nil {
		return nil, err
	}
	var list []Proc
	if out == "" || out == "null" {
		return nil, nil
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		// ConvertTo-Json writes a lone object for a one-element array in
		// some PowerShell versions.
		var one Proc
		if json.Unmarshal([]byte(out), &one) != nil {
			return nil, fmt.Errorf("powershell.exe %s printed what is not a process list: %w", wsl.ScriptList, err)
		}
		list = []Proc{one}
	}
	return list, nil
}
