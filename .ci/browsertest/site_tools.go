package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// brokenLink is the link the "site break" control plants: the first link
// from the start page to the paper-to-code index, renamed as a rewriting
// slip would name it (an underscore for the dash), so it stays inside the
// site and finds nothing.
const (
	breakPage = startNotebook + ".html"
	breakFrom = `href="` + indexPage + `.html`
	breakTo   = `href="paper_to_code.html`
)

// siteBreakCmd copies a built site and plants one broken internal link, or
// with -drop leaves a folder out of the copy instead (the control for
// MathJax's fonts: a subset measured on a machine whose browser took the
// installed fonts-mathjax lacks them).
func siteBreakCmd(args []string) error {
	fs := flag.NewFlagSet("site break", flag.ContinueOnError)
	in := fs.String("in", "", "a built site")
	out := fs.String("out", "", "the copy with one broken link (replaced)")
	drop := fs.String("drop", "", "instead of the link, leave this folder (relative to the site) out of the copy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return usagef("site break: -in and -out are required")
	}
	inAbs, err := filepath.Abs(*in)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(inAbs, "index.html")); err != nil {
		return fmt.Errorf("site break: %s is not a built site (no index.html)", *in)
	}
	outAbs, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	if err := replaceable(outAbs, inAbs); err != nil {
		return err
	}
	if err := copyTree(*in, *out); err != nil {
		return err
	}
	if *drop != "" {
		d := filepath.Join(*out, filepath.Clean(*drop))
		if rel, err := filepath.Rel(*out, d); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return usagef("site break: -drop %q is not a folder inside the site", *drop)
		}
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return fmt.Errorf("site break: %s is not a folder of the site", d)
		}
		fmt.Printf("control: %s without %s\n", *out, *drop)
		return os.RemoveAll(d)
	}
	p := filepath.Join(*out, breakPage)
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(breakFrom)) {
		return fmt.Errorf("%s has no %s to break", p, breakFrom)
	}
	b = bytes.Replace(b, []byte(breakFrom), []byte(breakTo), 1)
	fmt.Printf("control: %s with one broken link (%s → %s)\n", *out, strings.TrimPrefix(breakFrom, `href="`), strings.TrimPrefix(breakTo, `href="`))
	return os.WriteFile(p, b, 0o644)
}

// copyTree replaces dst with a copy of the regular files of src.
func copyTree(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, _ := filepath.Rel(src, p)
		return copyFile(p, filepath.Join(dst, r))
	})
}

// siteCropCmd cuts a horizontal band out of a screenshot (and optionally
// halves it), for the pictures committed under docs/.
func siteCropCmd(args []string) error {
	fs := flag.NewFlagSet("site crop", flag.ContinueOnError)
	in := fs.String("in", "", "PNG to read")
	out := fs.String("out", "", "PNG to write")
	y := fs.Int("y", 0, "top of the band (px)")
	h := fs.Int("h", 1400, "height of the band (px)")
	half := fs.Bool("half", false, "halve the width and height (2×2 mean)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *out == "" || *y < 0 || *h <= 0 {
		return usagef("site crop: -in, -out, -y ≥ 0 and -h > 0 are required")
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	got, err := cropBand(img, *y, *h, *half)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, got); err != nil {
		return err
	}
	fmt.Printf("%s: %dx%d, %d KB\n", *out, got.Bounds().Dx(), got.Bounds().Dy(), b.Len()/1024)
	return os.WriteFile(*out, b.Bytes(), 0o644)
}

// cropBand returns rows [y, y+h) of img (clipped to its bottom), halved on
// request.
func cropBand(img image.Image, y, h int, half bool) (image.Image, error) {
	bd := img.Bounds()
	if y >= bd.Dy() {
		return nil, fmt.Errorf("band starts at %d, the image is %d px high", y, bd.Dy())
	}
	h = min(h, bd.Dy()-y)
	w := bd.Dx()
	if !half {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		for yy := range h {
			for xx := range w {
				dst.Set(xx, yy, img.At(bd.Min.X+xx, bd.Min.Y+y+yy))
			}
		}
		return dst, nil
	}
	dst := image.NewRGBA(image.Rect(0, 0, w/2, h/2))
	for yy := range h / 2 {
		for xx := range w / 2 {
			var s [4]uint32
			for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				r, g, b, a := img.At(bd.Min.X+2*xx+d[0], bd.Min.Y+y+2*yy+d[1]).RGBA()
				s[0], s[1], s[2], s[3] = s[0]+r, s[1]+g, s[2]+b, s[3]+a
			}
			dst.Set(xx, yy, color.RGBA64{uint16(s[0] / 4), uint16(s[1] / 4), uint16(s[2] / 4), uint16(s[3] / 4)})
		}
	}
	return dst, nil
}
