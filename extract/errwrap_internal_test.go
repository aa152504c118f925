package extract

import "testing"

// TestWrapArg checks which operand of fmt.Errorf a %w verb takes.
func TestWrapArg(t *testing.T) {
	tests := []struct {
		format string
		idx    int
		ok     bool
	}{
		{"%w", 0, true},
		{"fetch %d: %w", 1, true},
		{"%s %5.2f %w", 2, true},
		{"100%% %w", 0, true},
		{"%-8s|%+d|%#x: %w", 3, true},
		{"%w then %v", 0, true},
		{"no verbs", 0, false},
		{"%d %v", 0, false},
		{"%w %w", 0, false},      // two wrapped errors: wrapErrors
		{"%[1]w", 0, false},      // an explicit argument index
		{"%*d %w", 0, false},     // a * width takes an argument
		{"trailing %", 0, false}, // no verb
	}
	for _, tt := range tests {
		idx, ok := wrapArg(tt.format)
		if ok != tt.ok || ok && idx != tt.idx {
			t.Errorf("wrapArg(%q) = %d, %v; want %d, %v", tt.format, idx, ok, tt.idx, tt.ok)
		}
	}
}
