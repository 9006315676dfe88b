package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// server is a server process started by benchserve.
type server struct {
	cmd  *exec.Cmd
	addr string
}

// start runs name with args and waits until find reads the address it
// listens on from its standard output or standard error.
func start(ctx context.Context, name string, args []string, find func(line string) string) (*server, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd}
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if addr := find(lines.Text()); addr != "" {
				found <- addr
				break
			}
		}
		_, _ = io.Copy(io.Discard, out) // keep the pipe drained
	}()
	select {
	case s.addr = <-found:
		return s, nil
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, fmt.Errorf("%s printed no address in 30s", name)
	}
}

// stop ends the process and waits for it.
func (s *server) stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

var logAddress = regexp.MustCompile(`address=(\S+)`)

// addressInLog finds the address in serve's "serving interpreter webhook" log line.
func addressInLog(line string) string {
	if m := logAddress.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// addressLine finds the address the floor prints alone on a line.
func addressLine(line string) string {
	const prefix = "listening on "
	if len(line) > len(prefix) && line[:len(prefix)] == prefix {
		return line[len(prefix):]
	}
	return ""
}

// cpu returns the CPU time the process has used (user and system), from
// /proc; 0 where there is no /proc.
func (s *server) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th, in clock ticks of 1/100 s.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
