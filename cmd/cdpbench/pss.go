package main

import (
	"path/filepath"
	"sort"
	"strings"
)

// rollup is what the worlds figure keeps of one process's
// /proc/<pid>/smaps_rollup, in kB. PSS divides every shared page among the
// processes mapping it, so a sum of PSS over a set of processes counts a
// page they share once; RSS counts it in each.
type rollup struct {
	RSSkB       int64 `json:"rss_kb"`
	PSSkB       int64 `json:"pss_kb"`
	PSSAnonkB   int64 `json:"pss_anon_kb"`
	PSSFilekB   int64 `json:"pss_file_kb"`
	PSSShmemkB  int64 `json:"pss_shmem_kb"`
	PrivCleankB int64 `json:"private_clean_kb"`
	PrivDirtykB int64 `json:"private_dirty_kb"`
}

func (r *rollup) add(o rollup) {
	r.RSSkB += o.RSSkB
	r.PSSkB += o.PSSkB
	r.PSSAnonkB += o.PSSAnonkB
	r.PSSFilekB += o.PSSFilekB
	r.PSSShmemkB += o.PSSShmemkB
	r.PrivCleankB += o.PrivCleankB
	r.PrivDirtykB += o.PrivDirtykB
}

// descendants is root and every process below it in ppids (pid → ppid),
// sorted; nil when root is not in the table.
func descendants(ppids map[int]int, root int) []int {
	if _, ok := ppids[root]; !ok {
		return nil
	}
	children := map[int][]int{}
	for pid, ppid := range ppids {
		if pid != ppid {
			children[ppid] = append(children[ppid], pid)
		}
	}
	seen := map[int]bool{root: true}
	queue := []int{root}
	for i := 0; i < len(queue); i++ {
		for _, c := range children[queue[i]] {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	sort.Ints(queue)
	return queue
}

// processKind names a Chromium process by its command line: "browser",
// "renderer", "zygote", "gpu-process", "utility:NetworkService" (the
// utility's service, without its mojom namespace), "crashpad" for the
// crash handler Chromium detaches from its tree. Chromium rewrites the
// command line of its children as one string, so argv is split at spaces
// too.
func processKind(exe string, argv []string) string {
	argv = strings.Fields(strings.Join(argv, " "))
	base := filepath.Base(exe)
	if base == "." || base == "/" || base == "" {
		if len(argv) > 0 {
			base = filepath.Base(argv[0])
		}
	}
	if strings.Contains(base, "crashpad") {
		return "crashpad"
	}
	typ, sub := "", ""
	for _, a := range argv {
		if v, ok := strings.CutPrefix(a, "--type="); ok {
			typ = v
		} else if v, ok := strings.CutPrefix(a, "--utility-sub-type="); ok {
			sub = v
		}
	}
	switch {
	case typ == "":
		return "browser"
	case typ == "utility" && sub != "":
		if i := strings.LastIndexByte(sub, '.'); i >= 0 {
			sub = sub[i+1:]
		}
		return "utility:" + sub
	default:
		return typ
	}
}
