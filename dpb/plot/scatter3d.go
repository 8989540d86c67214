package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// View is an orthographic camera looking at the origin from azimuth Azimuth
// (degrees, in the x1–x2 plane from the x1 axis) and elevation Elevation
// (degrees above that plane). Screen x grows to the viewer's right, screen y
// up, and Depth grows toward the viewer.
type View struct {
	Azimuth, Elevation float64
}

// basis returns the unit vectors right, up and toward (the viewer).
func (v View) basis() (right, up, toward [3]float64) {
	az, el := v.Azimuth*math.Pi/180, v.Elevation*math.Pi/180
	ca, sa, ce, se := math.Cos(az), math.Sin(az), math.Cos(el), math.Sin(el)
	right = [3]float64{-sa, ca, 0}
	up = [3]float64{-se * ca, -se * sa, ce}
	toward = [3]float64{ce * ca, ce * sa, se}
	return
}

// Project returns the screen coordinates and depth of p.
func (v View) Project(p [3]float64) (x, y, depth float64) {
	r, u, t := v.basis()
	return dot3(r, p), dot3(u, p), dot3(t, p)
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Points3 is one group of points of a [Scatter3D].
type Points3 struct {
	Name   string
	Points [][3]float64
	Color  color.Color
	Shape  draw.GlyphDrawer // defaults to a filled circle
	Radius vg.Length        // defaults to 2 pt
	// DepthFade blends far points toward white (0: none, 1: the farthest
	// point is white), a depth cue for a single-colour cloud.
	DepthFade float64
}

// Arrow3 is a segment from From to To with an arrow head at To.
type Arrow3 struct {
	Name     string
	From, To [3]float64
	Color    color.Color
	Width    vg.Length
}

// Scatter3DOptions configures [Scatter3D].
type Scatter3DOptions struct {
	Title string
	View  View
	// UnitSphere draws the unit sphere's outline (a faint circle: its
	// orthographic silhouette) and its equator in the x1–x2 plane.
	UnitSphere bool
	// Axes draws the coordinate axes from −AxisLength to AxisLength with
	// labels x₁, x₂, x₃ (0: no axes).
	AxisLength float64
	// Circles are extra faint 3-D curves (closed polylines), e.g. the slices
	// {⟨x, θ⟩ = c} of the sphere.
	Circles []Curve3
	// LegendSpace extends the top of the drawing by this many data units
	// (the sphere has radius 1) so the legend sits above the sphere; save the
	// plot with height/width ≈ (2·lim + LegendSpace)/(2·lim) for equal
	// aspect, lim = max(1.08, AxisLength + 0.1) (see [Scatter3DAspect]).
	LegendSpace float64
}

// Scatter3DAspect returns the height/width ratio of the data area that keeps
// the projection's aspect equal.
func Scatter3DAspect(o Scatter3DOptions) float64 {
	lim := 1.08
	if o.AxisLength > lim {
		lim = o.AxisLength + 0.1
	}
	return (2*lim + o.LegendSpace) / (2 * lim)
}

// Curve3 is a polyline in R³ drawn faintly, dashed where it lies behind the
// origin's depth plane.
type Curve3 struct {
	Name   string
	Points [][3]float64
	Color  color.Color
}

// Scatter3D draws groups of 3-D points by an orthographic projection, all
// groups depth-sorted together (far points first), with optional arrows
// drawn on top, faint guide curves, and a legend. The plot's two axes are the
// screen coordinates and are hidden; save it square for equal aspect.
func Scatter3D(groups []Points3, arrows []Arrow3, o Scatter3DOptions) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = o.Title
	p.HideAxes()
	p.Legend.Top = true
	p.Legend.Left = true
	s := &scatter3d{view: o.View, groups: groups, arrows: arrows, opts: o}
	p.Add(s)
	lim := 1.08
	if o.AxisLength > lim {
		lim = o.AxisLength + 0.1
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -lim, lim, -lim, lim+o.LegendSpace
	for i := range groups {
		g := &groups[i]
		if g.Radius == 0 {
			g.Radius = vg.Points(2)
		}
		if g.Shape == nil {
			g.Shape = draw.CircleGlyph{}
		}
		if g.Name != "" {
			p.Legend.Add(g.Name, legendGlyph{draw.GlyphStyle{Color: g.Color, Radius: g.Radius * 1.3, Shape: g.Shape}})
		}
	}
	for _, a := range arrows {
		if a.Name != "" {
			p.Legend.Add(a.Name, legendLine{draw.LineStyle{Color: a.Color, Width: a.widthOr()}})
		}
	}
	for _, c := range o.Circles {
		if c.Name != "" {
			p.Legend.Add(c.Name, legendLine{draw.LineStyle{Color: c.Color, Width: vg.Points(1)}})
		}
	}
	return p, nil
}

func (a Arrow3) widthOr() vg.Length {
	if a.Width == 0 {
		return vg.Points(2)
	}
	return a.Width
}

type legendGlyph struct{ s draw.GlyphStyle }

func (l legendGlyph) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(l.s, c.Center())
}

type legendLine struct{ s draw.LineStyle }

func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.s, c.Min.X, y, c.Max.X, y)
}

type scatter3d struct {
	view   View
	groups []Points3
	arrows []Arrow3
	opts   Scatter3DOptions
}

// Plot implements plot.Plotter.
func (s *scatter3d) Plot(c draw.Canvas, plt *plot.Plot) {
	tx, ty := plt.Transforms(&c)
	at := func(p [3]float64) (vg.Point, float64) {
		x, y, d := s.view.Project(p)
		return vg.Point{X: tx(x), Y: ty(y)}, d
	}
	faint := color.Gray{Y: 185}
	if s.opts.UnitSphere {
		// Silhouette: the unit circle in screen coordinates.
		var ring []vg.Point
		for i := 0; i <= 180; i++ {
			a := 2 * math.Pi * float64(i) / 180
			ring = append(ring, vg.Point{X: tx(math.Cos(a)), Y: ty(math.Sin(a))})
		}
		c.StrokeLines(draw.LineStyle{Color: faint, Width: vg.Points(1)}, ring)
		var eq [][3]float64
		for i := 0; i <= 180; i++ {
			a := 2 * math.Pi * float64(i) / 180
			eq = append(eq, [3]float64{math.Cos(a), math.Sin(a), 0})
		}
		s.curve(&c, at, eq, color.Gray{Y: 215})
	}
	if L := s.opts.AxisLength; L > 0 {
		for k := range 3 {
			var a, b [3]float64
			a[k], b[k] = -L, L
			pa, _ := at(a)
			pb, _ := at(b)
			c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(0.75)}, pa.X, pa.Y, pb.X, pb.Y)
		}
	}
	for _, cv := range s.opts.Circles {
		s.curve(&c, at, cv.Points, cv.Color)
	}

	type item struct {
		pt    vg.Point
		depth float64
		g     int
	}
	var items []item
	lo, hi := math.Inf(1), math.Inf(-1)
	for gi, g := range s.groups {
		for _, q := range g.Points {
			pt, d := at(q)
			items = append(items, item{pt, d, gi})
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].depth < items[j].depth })
	for _, it := range items {
		g := s.groups[it.g]
		col := g.Color
		if g.DepthFade > 0 && hi > lo {
			col = blend(col, color.White, g.DepthFade*(hi-it.depth)/(hi-lo))
		}
		c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: g.Radius, Shape: g.Shape}, it.pt)
		if _, ring := g.Shape.(draw.CircleGlyph); ring && g.DepthFade > 0 {
			c.DrawGlyph(draw.GlyphStyle{Color: blend(col, color.Black, 0.35), Radius: g.Radius, Shape: draw.RingGlyph{}}, it.pt)
		}
	}
	for _, a := range s.arrows {
		from, _ := at(a.From)
		to, _ := at(a.To)
		w := a.widthOr()
		ls := draw.LineStyle{Color: a.Color, Width: w}
		dx, dy := float64(to.X-from.X), float64(to.Y-from.Y)
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		ux, uy := dx/n, dy/n
		head := 5 * float64(w)
		base := vg.Point{X: to.X - vg.Length(head*ux), Y: to.Y - vg.Length(head*uy)}
		c.StrokeLine2(ls, from.X, from.Y, base.X, base.Y)
		hw := 0.45 * head
		var path vg.Path
		path.Move(to)
		path.Line(vg.Point{X: base.X - vg.Length(hw*uy), Y: base.Y + vg.Length(hw*ux)})
		path.Line(vg.Point{X: base.X + vg.Length(hw*uy), Y: base.Y - vg.Length(hw*ux)})
		path.Close()
		c.SetColor(a.Color)
		c.Fill(path)
	}
	if L := s.opts.AxisLength; L > 0 {
		names := []string{"x1", "x2", "x3"}
		ts := draw.TextStyle{Color: color.Gray{Y: 60}, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YCenter}
		ts.Font.Size = vg.Points(12)
		for k := range 3 {
			var q [3]float64
			q[k] = L + 0.09
			pq, _ := at(q)
			c.FillText(ts, pq, names[k])
		}
	}
}

// curve strokes a 3-D polyline, solid in front of the origin's depth plane and
// dashed behind it.
func (s *scatter3d) curve(c *draw.Canvas, at func([3]float64) (vg.Point, float64), pts [][3]float64, col color.Color) {
	solid := draw.LineStyle{Color: col, Width: vg.Points(1)}
	dashed := draw.LineStyle{Color: col, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
	for i := 1; i < len(pts); i++ {
		a, da := at(pts[i-1])
		b, db := at(pts[i])
		st := solid
		if da+db < 0 {
			st = dashed
		}
		c.StrokeLine2(st, a.X, a.Y, b.X, b.Y)
	}
}

func blend(a, b color.Color, t float64) color.Color {
	t = math.Max(0, math.Min(1, t))
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	mix := func(x, y uint32) uint8 { return uint8((float64(float64(x)*(1-t)) + float64(float64(y)*t)) / 257) }
	return color.RGBA{mix(ar, br), mix(ag, bg), mix(ab, bb), uint8(aa / 257)}
}

// DataRange implements plot.DataRanger: the unit square around the sphere.
func (s *scatter3d) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -1, 1, -1, 1
}

var _ plot.Plotter = (*scatter3d)(nil)
var _ plot.DataRanger = (*scatter3d)(nil)

// SliceCircle returns points of the circle {x : ‖x‖ = 1, ⟨x, θ⟩ = c} in R³
// (‖θ‖ = 1, |c| ≤ 1), closed.
func SliceCircle(theta [3]float64, c float64, n int) [][3]float64 {
	// Orthonormal basis (e1, e2) of θ⊥.
	var a [3]float64
	if math.Abs(theta[0]) < 0.9 {
		a = [3]float64{1, 0, 0}
	} else {
		a = [3]float64{0, 1, 0}
	}
	k := dot3(a, theta)
	e1 := [3]float64{a[0] - k*theta[0], a[1] - k*theta[1], a[2] - k*theta[2]}
	m := math.Sqrt(dot3(e1, e1))
	for i := range e1 {
		e1[i] /= m
	}
	e2 := [3]float64{theta[1]*e1[2] - theta[2]*e1[1], theta[2]*e1[0] - theta[0]*e1[2], theta[0]*e1[1] - theta[1]*e1[0]}
	r := math.Sqrt(math.Max(0, 1-c*c))
	pts := make([][3]float64, n+1)
	for i := range pts {
		t := 2 * math.Pi * float64(i) / float64(n)
		for j := range 3 {
			pts[i][j] = float64(c*theta[j]) + float64(r*(float64(math.Cos(t)*e1[j])+float64(math.Sin(t)*e2[j])))
		}
	}
	return pts
}

// SaveSized writes p as base.svg and base.png at the given size, creating
// the folder if needed. Each file is written atomically (see writeFile).
func SaveSized(p *plot.Plot, base string, w, h vg.Length) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	drawable(p)
	for _, ext := range []string{"svg", "png"} {
		pw, err := p.WriterTo(w, h, ext)
		if err != nil {
			return fmt.Errorf("plot: saving %s.%s: %w", base, ext, err)
		}
		var wt io.WriterTo = pw
		if ext == "svg" {
			wt = svgFonts{pw}
		}
		if err := writeFile(base+"."+ext, wt); err != nil {
			return err
		}
	}
	return nil
}
