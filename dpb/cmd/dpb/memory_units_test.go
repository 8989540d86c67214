package main

import "testing"

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"4G", 4 << 30}, {"4GiB", 4 << 30}, {"4GB", 4e9}, {"512MiB", 512 << 20}, {"512M", 512 << 20}, {"1.5e9", 1.5e9},
		{"100MB", 1e8}, {"2T", 2 << 40}, {"16MiB", 16 << 20},
		{"1_0G", 0}, {"0x10G", 0}, {"-1G", 0}, {"1M", 0}, {"NaN", 0}, {"G", 0}, {"", 0}, {"4Q", 0},
	} {
		got, err := parseBytes(c.in)
		if (err == nil) != (c.want != 0) || got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// The default limit is half of MemTotal where /proc/meminfo is readable
// (and no ulimit -v is lower).
func TestMemoryDefault(t *testing.T) {
	total, ok := memTotal()
	if !ok {
		t.Skip("no /proc/meminfo")
	}
	limit, how := memoryDefault()
	if as, lim := addressSpaceLimit(); lim {
		t.Skipf("under ulimit -v %d", as)
	}
	if limit != total/2 || how != "half of MemTotal" {
		t.Errorf("default %d (%s), want half of MemTotal %d", limit, how, total/2)
	}
}
