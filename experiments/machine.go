package experiments

import (
	"bufio"
	"cmp"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// CacheLevel is one level of the data caches of the machine that measured a
// timed experiment, as its operating system reports them.
type CacheLevel struct {
	// Level is 1 for L1d, 2 for L2, 3 for L3.
	Level int `json:"level"`
	// Bytes is the size of one such cache.
	Bytes uint64 `json:"bytes"`
}

// cacheDir is where Linux describes the first CPU's caches.
var cacheDir = "/sys/devices/system/cpu/cpu0/cache"

// MachineCaches returns the data and unified caches of the first CPU, by
// level, or nil where the system does not say (any system but Linux, or a
// guest told nothing): the [Plan.Caches] of a run whose times depend on
// them.
func MachineCaches() []CacheLevel {
	dirs, _ := filepath.Glob(filepath.Join(cacheDir, "index*"))
	var out []CacheLevel
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if read("type") == "Instruction" {
			continue
		}
		level, err := strconv.Atoi(read("level"))
		if err != nil {
			continue
		}
		size, ok := parseCacheSize(read("size"))
		if !ok {
			continue
		}
		out = append(out, CacheLevel{Level: level, Bytes: size})
	}
	slices.SortFunc(out, func(a, b CacheLevel) int { return a.Level - b.Level })
	return slices.CompactFunc(out, func(a, b CacheLevel) bool { return a.Level == b.Level })
}

// parseCacheSize reads a size as Linux writes it: "32K", "1024K", "32M".
func parseCacheSize(s string) (uint64, bool) {
	mult := uint64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, false
	}
	return v * mult, true
}

// Machine describes the processor of the machine that measured a timed
// experiment, as far as its operating system says: on Linux from the
// first processor of /proc/cpuinfo; elsewhere only Arch and CPUs.
type Machine struct {
	// Arch is the Go architecture of the program (runtime.GOARCH).
	Arch string `json:"arch"`
	// CPUs is the number of logical CPUs the program can use
	// (runtime.NumCPU).
	CPUs int `json:"cpus"`
	// Vendor and Model are the processor's vendor and model name, as
	// "AuthenticAMD" and "AMD EPYC 7763 64-Core Processor" (a virtual
	// machine may say less).
	Vendor string `json:"vendor,omitempty"`
	Model  string `json:"model,omitempty"`
	// Family, ModelNumber and Stepping identify an x86 processor's
	// generation where the model name does not ("cpu family", "model"
	// and "stepping" of /proc/cpuinfo); 0 where unknown.
	Family      int `json:"family,omitempty"`
	ModelNumber int `json:"model_number,omitempty"`
	Stepping    int `json:"stepping,omitempty"`
	// Virtual reports that the processor says it runs under a hypervisor
	// (the x86 flag "hypervisor").
	Virtual bool `json:"virtual,omitempty"`
}

// cpuinfo is where Linux describes the processors.
var cpuinfo = "/proc/cpuinfo"

// MachineCPU returns the processor of the machine the program runs on
// (see [Machine]): the [Plan.Machine] of a run whose times depend on it.
func MachineCPU() *Machine {
	m := &Machine{Arch: runtime.GOARCH, CPUs: runtime.NumCPU()}
	f, err := os.Open(cpuinfo)
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20) // the flags line is long
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			if m.Vendor != "" || m.Model != "" {
				break // the first processor's block is enough
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		num := func() int { n, _ := strconv.Atoi(val); return n }
		switch key {
		case "vendor_id":
			m.Vendor = val
		case "model name":
			m.Model = val
		case "cpu family":
			m.Family = num()
		case "model":
			m.ModelNumber = num()
		case "stepping":
			m.Stepping = num()
		case "flags":
			m.Virtual = slices.Contains(strings.Fields(val), "hypervisor")
		}
	}
	return m
}

// String describes the machine in one line: "AMD EPYC (AuthenticAMD,
// family 25 model 17 stepping 1, virtual), amd64, 2 CPUs".
func (m *Machine) String() string {
	if m == nil {
		return "(machine unknown)"
	}
	var b strings.Builder
	b.WriteString(cmp.Or(m.Model, "processor of unknown model"))
	var id []string
	if m.Vendor != "" {
		id = append(id, m.Vendor)
	}
	if m.Family != 0 || m.ModelNumber != 0 {
		id = append(id, "family "+strconv.Itoa(m.Family)+" model "+strconv.Itoa(m.ModelNumber)+" stepping "+strconv.Itoa(m.Stepping))
	}
	if m.Virtual {
		id = append(id, "virtual")
	}
	if len(id) > 0 {
		b.WriteString(" (" + strings.Join(id, ", ") + ")")
	}
	b.WriteString(", " + m.Arch + ", " + strconv.Itoa(m.CPUs) + " CPUs")
	return b.String()
}
