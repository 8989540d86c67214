package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/dpbandits/dpbandits/dpb/data"
)

func init() {
	register("data", "get the public data the replay figures read (dpb data fetch)", runData)
}

const dataDoc = `Subcommands:
  fetch [obd|uci|all]   download the Open Bandit Dataset small sample (obd), UCI Shuttle and
                        Mushroom (uci), or both (all, the default) from their canonical sources,
                        verify the SHA-256 checksums pinned in the code, convert UCI Shuttle's
                        shuttle.trn.Z/shuttle.tst into shuttle.csv, write each file atomically
  dir                   print the data directory the commands and notebooks read by default

The default data directory is $DPB_DATA when set, else $XDG_DATA_HOME/dpbandits
(~/.local/share/dpbandits) when it exists, else shared/data beside the repository
checkout when it exists (CI), else $XDG_DATA_HOME/dpbandits.`

func runData(args []string) error {
	fs := newFlags("data", "fetch [obd|uci|all] [-dir DIR] [-manifest FILE] | dir", dataDoc)
	def := data.UserDir()
	if d := os.Getenv(data.EnvDir); d != "" {
		def = d
	}
	dir := fs.String("dir", def, "write the files under this directory, created if needed (default $DPB_DATA, else $XDG_DATA_HOME/dpbandits)")
	manifest := fs.String("manifest", os.Getenv("DPB_DATA_MANIFEST"), "read URLs and checksums from this JSON file instead of the built-in ones (mirrors, tests; default $DPB_DATA_MANIFEST)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return usagef("data: want a subcommand: fetch or dir")
	}
	switch pos[0] {
	case "dir":
		if err := noArgs(fs, pos[1:]); err != nil {
			return err
		}
		fmt.Println(data.Dir())
		return nil
	case "fetch":
	default:
		return usagef("data: unknown subcommand %q, want fetch or dir", pos[0])
	}
	set := "all"
	if len(pos) > 1 {
		set = pos[1]
	}
	if err := noArgs(fs, pos[min(len(pos), 2):]); err != nil {
		return err
	}
	files, err := fetchFiles(set, *manifest)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usagef("data fetch: no home directory to default to; pass -dir DIR")
	}
	if err := ready(fetchMemory(files)); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := (data.Fetcher{Log: os.Stdout}).Fetch(ctx, *dir, files); err != nil {
		return fmt.Errorf("data fetch: %w", err)
	}
	fmt.Printf("%d files of %q in %s\n", len(files), set, *dir)
	return nil
}

// fetchFiles returns the files of set in the manifest (the built-in one
// when manifest is "").
func fetchFiles(set, manifest string) ([]data.File, error) {
	m := data.DefaultManifest()
	if manifest != "" {
		f, err := os.Open(manifest)
		if err != nil {
			return nil, fmt.Errorf("data fetch: %w", err)
		}
		m, err = data.ReadManifest(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("data fetch: %s: %w", manifest, err)
		}
	}
	files, err := m.Select(set)
	if err != nil {
		return nil, usageError{fmt.Errorf("data fetch: %w", err)}
	}
	return files, nil
}

// fetchMemory is what a fetch holds: each file's sources whole (each at
// most 4× its size + 1 MiB) with its converted bytes, one file at a time.
func fetchMemory(files []data.File) memEstimate {
	var worst float64
	for _, f := range files {
		worst = max(worst, float64(len(f.URLs)+1)*float64(4*f.Size+1<<20))
	}
	return memEstimate{{"the largest file's downloads and converted bytes (sizes from the manifest)", "-manifest", worst}}
}
