// Package modelfile loads model files of either language fencecheck reads:
// Memorax's .rmm, and the project's own native format (any other extension,
// conventionally .fcm).
package modelfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
	"github.com/fencecheck/fencecheck/model/rmm"
)

// Load reads and parses the model file at path, choosing the language by its
// extension (.rmm: Memorax; anything else: native).
func Load(path string) (*model.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses src, named filename, choosing the language by the extension.
func Parse(filename string, src []byte) (*model.Program, error) {
	var (
		p   *model.Program
		err error
	)
	if strings.EqualFold(filepath.Ext(filename), ".rmm") {
		p, err = rmm.Parse(filename, src)
	} else {
		p, err = native.Parse(filename, src)
	}
	if err != nil {
		return nil, err
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return p, nil
}
