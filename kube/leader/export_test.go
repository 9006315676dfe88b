package leader

import "time"

// Pause makes e's last renewal of the Lease d older, as a process paused
// for d (SIGSTOP) finds it when it resumes.
func Pause(e *Elector, d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.renewed = e.renewed.Add(-d)
}
