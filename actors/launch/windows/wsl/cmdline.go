package wsl

import "strings"

// QuoteArg quotes one argument for a Windows command line so that
// CommandLineToArgvW (and the C runtime Chrome uses) reads it back
// unchanged: quotes around it when it holds blanks or quotes, a backslash
// before each quote, and the backslashes that precede a quote doubled.
// Other backslashes stay as they are, so C:\x\ needs no escaping.
func QuoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\v\"") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; ; i++ {
		n := 0
		for i < len(s) && s[i] == '\\' {
			i++
			n++
		}
		switch {
		case i == len(s):
			// Before the closing quote: every backslash doubled.
			b.WriteString(strings.Repeat(`\`, 2*n))
			b.WriteByte('"')
			return b.String()
		case s[i] == '"':
			b.WriteString(strings.Repeat(`\`, 2*n+1))
			b.WriteByte('"')
		default:
			b.WriteString(strings.Repeat(`\`, n))
			b.WriteByte(s[i])
		}
	}
}

// CommandLine joins args into one Windows command line (QuoteArg each).
func CommandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = QuoteArg(a)
	}
	return strings.Join(quoted, " ")
}

// SplitArgs splits a Windows command line's arguments as
// CommandLineToArgvW does for every argument but the program name: 2n
// backslashes before a quote are n and the quote delimits, 2n+1 are n and
// a literal quote; "" inside quotes is a literal quote.
func SplitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	inQuotes, started := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(s) && s[i] == '\\' {
				n++
				i++
			}
			if i < len(s) && s[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
				} else {
					i-- // the quote is a delimiter: read it next
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
				i--
			}
			started = true
		case c == '"':
			if inQuotes && i+1 < len(s) && s[i+1] == '"' {
				cur.WriteByte('"')
				i++
			} else {
				inQuotes = !inQuotes
			}
			started = true
		case (c == ' ' || c == '\t') && !inQuotes:
			if started {
				args = append(args, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if started {
		args = append(args, cur.String())
	}
	return args
}

// SplitCommandLine splits a whole command line (Win32_Process.CommandLine):
// the program name ends at the next quote when it starts with one, at the
// first blank otherwise, with no escapes; the rest as SplitArgs.
func SplitCommandLine(s string) []string {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return nil
	}
	var prog, rest string
	if s[0] == '"' {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return []string{s[1:]}
		}
		prog, rest = s[1:1+end], s[2+end:]
	} else {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return []string{s}
		}
		prog, rest = s[:i], s[i:]
	}
	return append([]string{prog}, SplitArgs(rest)...)
}
