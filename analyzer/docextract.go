package analyzer

import (
	"fmt"
	"strings"
)

// extractDoc returns the "# Analyzer name" section of a package doc comment
// (content is the doc.go source) up to the next heading, without its heading,
// without the leading "// " of each line and without the "name: " that starts
// the section.
func extractDoc(content, name string) (string, error) {
	heading := "# Analyzer " + name
	var (
		out   []string
		found bool
	)
	for line := range strings.SplitSeq(content, "\n") {
		if !strings.HasPrefix(line, "//") {
			if found {
				break
			}
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if strings.HasPrefix(text, "# ") {
			if found {
				break
			}
			found = text == heading
			continue
		}
		if found {
			out = append(out, text)
		}
	}
	if !found {
		return "", fmt.Errorf("no %q section in the package doc", heading)
	}
	doc := strings.TrimSpace(strings.Join(out, "\n"))
	if !strings.HasPrefix(doc, name+": ") {
		return "", fmt.Errorf("section %q does not start with %q", heading, name+": ")
	}
	return strings.TrimPrefix(doc, name+": "), nil
}
