package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestKeysDisjoint(t *testing.T) {
	tr := &Job{stream: 99}
	seen := map[string]string{}
	for i := range uint64(1000) {
		for space, k := range map[string]string{"member": string(tr.Member(i)), "query": string(tr.Query(i)), "stranger": string(tr.Stranger(i)), "candidate": string(tr.Candidate(i))} {
			if prev, ok := seen[k]; ok {
				t.Fatalf("%s key %d equals a %s key", space, i, prev)
			}
			seen[k] = space
		}
	}
}

func TestDataCaches(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{{"32K", 32 << 10, true}, {"1024K", 1 << 20, true}, {"32M", 32 << 20, true}, {"12", 12, true}, {"", 0, false}, {"xK", 0, false}, {"0K", 0, false}} {
		got, ok := parseCacheSize(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseCacheSize(%q) = %d, %v, want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	dir := t.TempDir()
	write := func(index, name, v string) {
		if err := os.MkdirAll(filepath.Join(dir, index), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, index, name), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range [][3]string{{"1", "Data", "48K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"}} {
		idx := fmt.Sprintf("index%d", i)
		write(idx, "level", c[0])
		write(idx, "type", c[1])
		write(idx, "size", c[2])
	}
	defer func(d string) { cacheDir = d }(cacheDir)
	cacheDir = dir
	got := MachineCaches()
	if want := []CacheLevel{{1, 48 << 10}, {2, 1 << 20}}; !slices.Equal(got, want) {
		t.Errorf("MachineCaches() = %v, want %v", got, want)
	}
}

// TestMachineCPU reads the first processor of a /proc/cpuinfo, and says
// what it knows when the file is missing.
func TestMachineCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpuinfo")
	text := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu avx2 hypervisor\n\n" +
		"processor\t: 1\nvendor_id\t: Other\nmodel name\t: Other\n\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(p string) { cpuinfo = p }(cpuinfo)
	cpuinfo = path
	m := MachineCPU()
	want := Machine{Arch: m.Arch, CPUs: m.CPUs, Vendor: "AuthenticAMD", Model: "AMD EPYC", Family: 25, ModelNumber: 17, Stepping: 1, Virtual: true}
	if *m != want || m.Arch == "" || m.CPUs < 1 {
		t.Errorf("MachineCPU() = %+v, want %+v", *m, want)
	}
	if got, want := m.String(), "AMD EPYC (AuthenticAMD, family 25 model 17 stepping 1, virtual), "+m.Arch+", "+fmt.Sprint(m.CPUs)+" CPUs"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	cpuinfo = filepath.Join(t.TempDir(), "missing")
	if m := MachineCPU(); m.Model != "" || m.Vendor != "" || m.Arch == "" {
		t.Errorf("without cpuinfo: %+v", *m)
	}
}
