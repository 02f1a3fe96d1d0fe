package zoo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Manifest is manifest.json: the versions that produced the zoo and every file's digest.
type Manifest struct {
	Versions map[string]string    `json:"versions"`
	Files    map[string]FileEntry `json:"files"`
}

// FileEntry is a file's sha256 (hex) and size in bytes.
type FileEntry struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// LoadManifest reads dir/manifest.json.
func LoadManifest(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("zoo: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("zoo: manifest.json: %w", err)
	}
	return &m, nil
}

// Verify compares the files under dir with the manifest and returns one line per problem:
// a file missing, changed, or not listed.
func (m *Manifest) Verify(dir string) ([]string, error) {
	var problems []string
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "manifest.json" {
			return nil
		}
		seen[rel] = true
		want, ok := m.Files[rel]
		if !ok {
			problems = append(problems, rel+": not in the manifest")
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want.SHA256 || int64(len(b)) != want.Size {
			problems = append(problems, fmt.Sprintf("%s: %d bytes sha256 %s, manifest says %d bytes %s", rel, len(b), got, want.Size, want.SHA256))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("zoo: %w", err)
	}
	for rel := range m.Files {
		if !seen[rel] {
			problems = append(problems, rel+": missing")
		}
	}
	sort.Strings(problems)
	return problems, nil
}
