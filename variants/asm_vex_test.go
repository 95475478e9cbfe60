package variants

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The guard on the package's assembly: no function mixes legacy-SSE and
// VEX encodings, and none returns or jumps out with the upper halves of
// the Y registers dirty. A legacy-SSE instruction (MOVQ r, X0) among
// Y-register code costs a state transition or a merge with the upper
// halves on every call, hundreds of cycles on some processors; the VEX
// form (VMOVQ r, X0) costs nothing. The checks read the .s files as text,
// expand their macros, and so run on every architecture and build tag.

// asmInst is one instruction of an assembly function after macro
// expansion, or a label (op empty).
type asmInst struct {
	label string
	op    string
	args  []string
	line  int    // line of the source file where it (or its macro's use) is
	text  string // the instruction as expanded, for messages
}

// asmFunc is the expanded body of one TEXT symbol.
type asmFunc struct {
	name  string
	line  int
	insts []asmInst
}

// asmMacro is a #define of the assembly source.
type asmMacro struct {
	params []string // nil for an object-like macro
	fnLike bool
	body   []string // one instruction line per continuation line
}

var (
	asmBlockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	asmLabel        = regexp.MustCompile(`^([A-Za-z_.·][A-Za-z0-9_.·]*)\s*:`)
	asmInvocation   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)$`)
	asmDefine       = regexp.MustCompile(`^#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?\s*(.*)$`)
	// asmVecReg matches an X, Y or Z register operand (or one used as a
	// VSIB index), and asmWideReg a Y or Z one.
	asmVecReg  = regexp.MustCompile(`(?:^|[^A-Za-z0-9_·.<>])([XYZ](?:[12]?[0-9]|3[01]))(?:$|[^A-Za-z0-9_])`)
	asmWideReg = regexp.MustCompile(`(?:^|[^A-Za-z0-9_·.<>])([YZ](?:[12]?[0-9]|3[01]))(?:$|[^A-Za-z0-9_])`)
)

// parseAsm splits the Go assembly src into its TEXT functions, with every
// macro use expanded (parameters substituted, macros within macros and
// macros passed as arguments too). It reports an error for a use of an
// undefined function-like macro, so that an instruction cannot hide in a
// macro the parser did not see.
func parseAsm(src string) ([]asmFunc, error) {
	src = asmBlockComment.ReplaceAllStringFunc(src, func(c string) string {
		return strings.Repeat("\n", strings.Count(c, "\n")) // keep line numbers
	})
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "//"); j >= 0 {
			l = l[:j]
		}
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	macros := map[string]asmMacro{}
	var fns []asmFunc
	var cur *asmFunc
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		// A logical line and its continuation lines (backslash-newline).
		parts := []string{lines[i]}
		for strings.HasSuffix(parts[len(parts)-1], `\`) && i+1 < len(lines) {
			last := parts[len(parts)-1]
			parts[len(parts)-1] = strings.TrimSuffix(last, `\`)
			i++
			parts = append(parts, lines[i])
		}
		first := strings.TrimSpace(parts[0])
		switch {
		case strings.HasPrefix(first, "#"):
			if m := asmDefine.FindStringSubmatch(first); m != nil {
				mac := asmMacro{body: append([]string{m[3]}, parts[1:]...)}
				if m[2] != "" {
					mac.fnLike = true
					for p := range strings.SplitSeq(strings.Trim(m[2], "()"), ",") {
						if p = strings.TrimSpace(p); p != "" {
							mac.params = append(mac.params, p)
						}
					}
				}
				macros[m[1]] = mac
			}
			continue
		case strings.HasPrefix(first, "TEXT"):
			name := strings.TrimSpace(strings.TrimPrefix(first, "TEXT"))
			if j := strings.Index(name, "(SB)"); j >= 0 {
				name = name[:j]
			}
			fns = append(fns, asmFunc{name: name, line: lineNo})
			cur = &fns[len(fns)-1]
			continue
		case strings.HasPrefix(first, "DATA"), strings.HasPrefix(first, "GLOBL"):
			cur = nil
			continue
		}
		if cur == nil {
			continue
		}
		for _, p := range parts {
			insts, err := expandAsm(p, macros, lineNo, 0)
			if err != nil {
				return nil, err
			}
			cur.insts = append(cur.insts, insts...)
		}
	}
	return fns, nil
}

// expandAsm turns one source line into instructions: it splits the line
// at semicolons, takes off labels, and expands macro uses recursively.
func expandAsm(line string, macros map[string]asmMacro, lineNo, depth int) ([]asmInst, error) {
	if depth > 32 {
		return nil, fmt.Errorf("line %d: macros nested too deep", lineNo)
	}
	var out []asmInst
	for stmt := range strings.SplitSeq(line, ";") {
		stmt = strings.TrimSpace(stmt)
		for {
			m := asmLabel.FindStringSubmatch(stmt)
			if m == nil {
				break
			}
			out = append(out, asmInst{label: m[1], line: lineNo, text: m[0]})
			stmt = strings.TrimSpace(stmt[len(m[0]):])
		}
		if stmt == "" {
			continue
		}
		if mac, ok := macros[stmt]; ok && !mac.fnLike {
			for _, b := range mac.body {
				insts, err := expandAsm(b, macros, lineNo, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, insts...)
			}
			continue
		}
		if m := asmInvocation.FindStringSubmatch(stmt); m != nil {
			mac, ok := macros[m[1]]
			if ok && mac.fnLike {
				args := splitAsmArgs(m[2])
				if len(args) != len(mac.params) && !(len(mac.params) == 0 && len(args) == 1 && args[0] == "") {
					return nil, fmt.Errorf("line %d: %s takes %d arguments, given %d", lineNo, m[1], len(mac.params), len(args))
				}
				for _, b := range mac.body {
					for j, p := range mac.params {
						b = regexp.MustCompile(`\b`+regexp.QuoteMeta(p)+`\b`).ReplaceAllLiteralString(b, args[j])
					}
					insts, err := expandAsm(b, macros, lineNo, depth+1)
					if err != nil {
						return nil, err
					}
					out = append(out, insts...)
				}
				continue
			}
			if !strings.ContainsAny(stmt[:len(m[1])+1], " \t") {
				return nil, fmt.Errorf("line %d: %s( is no macro defined in the file", lineNo, m[1])
			}
		}
		op, rest, _ := strings.Cut(stmt, " ")
		if o, r, ok := strings.Cut(stmt, "\t"); ok && len(o) < len(op) {
			op, rest = o, r
		}
		out = append(out, asmInst{op: op, args: splitAsmArgs(rest), line: lineNo, text: stmt})
	}
	return out, nil
}

// splitAsmArgs splits s at the commas outside parentheses.
func splitAsmArgs(s string) []string {
	var args []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" || len(args) > 0 {
		args = append(args, rest)
	}
	return args
}

// vexOp reports whether op is a VEX (or EVEX) encoded instruction: every
// V-prefixed amd64 mnemonic but the segment checks VERR and VERW.
func vexOp(op string) bool {
	return strings.HasPrefix(op, "V") && op != "VERR" && op != "VERW"
}

// hasReg reports whether one of the instruction's operands matches re.
func (in asmInst) hasReg(re *regexp.Regexp) bool {
	for _, a := range in.args {
		if re.MatchString(a) {
			return true
		}
	}
	return false
}

// checkVEX returns a message for every violation in fns: a function that
// has a VEX instruction or a Y or Z register must have no instruction of
// another encoding on an X, Y or Z register (a legacy-SSE one: every
// amd64 mnemonic with a vector register operand that is not V-prefixed),
// and must not reach RET, a CALL or a jump out of the function with a Y
// or Z register written since the last VZEROUPPER (or VZEROALL).
func checkVEX(file string, fns []asmFunc) []string {
	var bad []string
	for _, fn := range fns {
		vex := false
		for _, in := range fn.insts {
			if in.op != "" && (vexOp(in.op) || in.hasReg(asmWideReg)) {
				vex = true
				break
			}
		}
		if !vex {
			continue
		}
		for _, in := range fn.insts {
			if in.op != "" && !vexOp(in.op) && in.hasReg(asmVecReg) {
				bad = append(bad, fmt.Sprintf("%s:%d: %s: legacy-SSE %q in a function with VEX code; use its VEX form (V%s)", file, in.line, fn.name, in.text, in.op))
			}
		}
		bad = append(bad, checkUpper(file, fn)...)
	}
	return bad
}

// checkUpper follows every path through fn, from its first instruction,
// and reports each exit (RET, CALL, a jump to a symbol) that a path
// reaches with a Y or Z register written and no VZEROUPPER since.
func checkUpper(file string, fn asmFunc) []string {
	labels := map[string]int{}
	for i, in := range fn.insts {
		if in.label != "" {
			labels[in.label] = i
		}
	}
	// dirty[i] is set once some path reaches instruction i with dirty
	// upper halves; seen[i] once some path reaches it at all.
	n := len(fn.insts)
	seen, dirty := make([]bool, n), make([]bool, n)
	reported := map[int]bool{}
	var bad []string
	type state struct {
		i     int
		dirty bool
	}
	work := []state{{0, false}}
	visit := func(i int, d bool) {
		if i >= n || (seen[i] && (dirty[i] || !d)) {
			return
		}
		seen[i], dirty[i] = true, dirty[i] || d
		work = append(work, state{i, d})
	}
	if n > 0 {
		seen[0] = true
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		in, d := fn.insts[s.i], s.dirty
		switch {
		case in.op == "VZEROUPPER" || in.op == "VZEROALL":
			d = false
		case in.op != "" && in.hasReg(asmWideReg):
			d = true
		}
		exit := in.op == "RET" || in.op == "CALL"
		next, fallThrough := -1, in.op != "RET" && in.op != "JMP"
		if strings.HasPrefix(in.op, "J") && len(in.args) > 0 {
			if t, ok := labels[in.args[len(in.args)-1]]; ok {
				next = t
			} else {
				exit = true // a tail jump to another function
			}
		}
		if exit && d && !reported[s.i] {
			reported[s.i] = true
			bad = append(bad, fmt.Sprintf("%s:%d: %s: %q with the upper halves of the Y registers dirty; VZEROUPPER first", file, in.line, fn.name, in.text))
		}
		if next >= 0 {
			visit(next, d)
		}
		if fallThrough {
			visit(s.i+1, d)
		}
	}
	return bad
}

// TestAsmNoSSEAVXMix checks every assembly file of the package with
// checkVEX, after checking that the parse saw the functions and the VEX
// code it should (so that the check cannot pass on nothing).
func TestAsmNoSSEAVXMix(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no assembly files found")
	}
	vexFuncs := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fns, err := parseAsm(string(src))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if strings.Contains(string(src), "\nTEXT") && len(fns) == 0 {
			t.Errorf("%s: no TEXT function parsed", file)
		}
		for _, fn := range fns {
			for _, in := range fn.insts {
				if vexOp(in.op) {
					vexFuncs++
					break
				}
			}
		}
		for _, msg := range checkVEX(file, fns) {
			t.Error(msg)
		}
	}
	if vexFuncs == 0 {
		t.Error("no function with VEX code found: the parse is broken")
	}
}

// TestCheckVEX runs the checker on small sources, each of which it must
// flag or pass, among them the legacy MOVQ that BLOCKEDPOSITIONS once had.
func TestCheckVEX(t *testing.T) {
	const head = "#include \"textflag.h\"\n\n// func f()\nTEXT ·f(SB), NOSPLIT, $0-8\n"
	cases := []struct {
		name string
		src  string
		bad  int // violations expected
	}{
		{"legacy MOVQ among Y code", head + `
	MOVQ         AX, X0
	VPBROADCASTQ X0, Y0
	VZEROUPPER
	RET
`, 1},
		{"VMOVQ among Y code", head + `
	VMOVQ        AX, X0
	VPBROADCASTQ X0, Y0
	VZEROUPPER
	RET
`, 0},
		{"legacy MOVQ in a macro with parameters", `
#define POSITIONS(r, off) \
	MOVQ         r, X0 \
	VPBROADCASTQ X0, Y0 \
	VPSRLVQ      shifts<>+off(SB), Y0, Y1

#define USE(pos) pos

TEXT ·f(SB), NOSPLIT, $0-8
	USE(POSITIONS(R8, 64))
	VZEROUPPER
	RET
`, 1},
		{"VMOVQ in a macro with parameters", `
#define POSITIONS(r, off) \
	VMOVQ        r, X0 \
	VPBROADCASTQ X0, Y0 \
	VPSRLVQ      shifts<>+off(SB), Y0, Y1
TEXT ·f(SB), NOSPLIT, $0-8
	POSITIONS(R8, 64)
	VZEROUPPER
	RET
`, 0},
		{"legacy ops on X registers beside VEX on X registers", head + `
	MOVOU   (AX), X0
	PXOR    X1, X1
	PSHUFD  $0, X0, X2
	VPADDD  X0, X1, X1
	MOVD    X1, BX
	RET
`, 4},
		{"a legacy op behind a label and a semicolon", head + `
	VPXOR Y0, Y0, Y0
loop: ADDQ $1, AX; MOVQ AX, X1
	VZEROUPPER
	RET
`, 1},
		{"a function of legacy SSE alone", head + `
	MOVOU (AX), X0
	PXOR  X1, X0
	MOVQ  X0, AX
	RET
`, 0},
		{"SSE and AVX in separate functions", head + `
	MOVOU (AX), X0
	RET

// func g()
TEXT ·g(SB), NOSPLIT, $0-8
	VMOVDQU (AX), Y0
	VZEROUPPER
	RET
`, 0},
		{"RET without VZEROUPPER after Y code", head + `
	VMOVDQU (AX), Y0
	VMOVDQU Y0, (BX)
	RET
`, 1},
		{"a tail jump to Go after Y code", head + `
	VMOVDQU (AX), Y0
	VPTEST  Y0, Y0
	JEQ     other
	VZEROUPPER
	RET
other:
	JMP ·g(SB)
`, 1},
		{"an early return before any Y code", head + `
	TESTQ   DX, DX
	JLE     none
	VMOVDQU (AX), Y0
	VMOVDQU Y0, (BX)
	VZEROUPPER
none:
	RET
`, 0},
		{"a loop back to a dirty state", head + `
	VMOVDQU (AX), Y0
loop:
	VZEROUPPER
	DECQ    CX
	JZ      done
	VPOR    Y0, Y0, Y0
	JNZ     loop
	RET
done:
	RET
`, 1},
	}
	for _, c := range cases {
		fns, err := parseAsm(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := checkVEX("test.s", fns); len(got) != c.bad {
			t.Errorf("%s: %d violations, want %d: %q", c.name, len(got), c.bad, got)
		}
	}
	// The forms of the multiblock probes: a label passed to a macro, the
	// masked loads and stores, and the scalar mix among Y code.
	more := []struct {
		name string
		src  string
		bad  int
	}{
		{"a legacy MOVQ to X in a macro with a label parameter", `
#define NEXT(skip) \
	CMPQ  CX, $12 \
	JLE   skip \
	MOVQ  R8, X5 \
	VPBROADCASTQ X5, Y5 \
skip:

TEXT ·f(SB), NOSPLIT, $0-8
	VPBROADCASTQ h2+8(FP), Y0
	NEXT(over)
	VZEROUPPER
	RET
`, 1},
		{"masked loads and stores, scalar mix, VMOVQ", `
#define NEXT(skip) \
	CMPQ  CX, $12 \
	JLE   skip \
	IMULQ R9, R8 \
	VMOVQ R8, X5 \
	VPBROADCASTQ X5, Y5 \
skip:

TEXT ·f(SB), NOSPLIT, $0-8
	VPBROADCASTQ h2+8(FP), Y0
	NEXT(over)
	VPMASKMOVD   (AX), Y4, Y3
	VPOR         Y5, Y3, Y3
	VPMASKMOVQ   Y3, Y4, 32(AX)
	VZEROUPPER
	RET
`, 0},
	}
	for _, c := range more {
		fns, err := parseAsm(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := checkVEX("test.s", fns); len(got) != c.bad {
			t.Errorf("%s: %d violations, want %d: %q", c.name, len(got), c.bad, got)
		}
	}
	if _, err := parseAsm(head + "\tUNDEFINED(AX)\n"); err == nil {
		t.Error("a use of an undefined macro parsed without error")
	}
}

// TestAsmGuardSeesProbes checks that the guard reads every probe entry
// point of the package's assembly as VEX code and finds it clean: the
// split-block and blocked probes of probe_amd64.s and the multiblock
// probes of multiblock_amd64.s, whose instructions come from macros (the
// masked loads and stores among them), so that a file or a function the
// parse missed cannot pass the guard unread.
func TestAsmGuardSeesProbes(t *testing.T) {
	want := map[string][]string{
		"probe_amd64.s":      {"·splitAddHash", "·splitContainsHash", "·splitAdd", "·splitContains", "·blockedTest", "·streamBlockedTest", "·blockedContains"},
		"multiblock_amd64.s": {"·multiTest", "·multiSet"},
	}
	// ops are instructions each multiblock probe must show after macro
	// expansion.
	ops := map[string][]string{
		"·multiTest": {"VPSRLVQ", "VPSLLVD", "VPSLLVQ", "VPMASKMOVD", "VPMASKMOVQ", "VPTEST", "VMOVQ", "VZEROUPPER"},
		"·multiSet":  {"VPSRLVQ", "VPSLLVD", "VPSLLVQ", "VPMASKMOVD", "VPMASKMOVQ", "VPOR", "VMOVQ", "VZEROUPPER"},
	}
	for file, names := range want {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fns, err := parseAsm(string(src))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		byName := map[string]asmFunc{}
		for _, fn := range fns {
			byName[fn.name] = fn
		}
		for _, name := range names {
			fn, ok := byName[name]
			if !ok {
				t.Errorf("%s: no function %s parsed", file, name)
				continue
			}
			seen := map[string]bool{}
			for _, in := range fn.insts {
				seen[in.op] = true
			}
			for _, op := range ops[name] {
				if !seen[op] {
					t.Errorf("%s: %s: no %s after macro expansion; the parse is broken", file, name, op)
				}
			}
			if !slices.ContainsFunc(fn.insts, func(in asmInst) bool { return vexOp(in.op) }) {
				t.Errorf("%s: %s has no VEX instruction", file, name)
			}
			for _, msg := range checkVEX(file, []asmFunc{fn}) {
				t.Error(msg)
			}
		}
	}
}
