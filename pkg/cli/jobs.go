package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/jobs"
)

func (r *Root) jobsCmd() *cobra.Command {
	return adminNoun("jobs", "Background jobs that did not end well: list them, run them again",
		r.jobsListCmd(), r.jobsRetryCmd())
}

// errorsCell is the last attempt's error on one line, and how many came
// before it.
func errorsCell(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	last := strings.Join(strings.Fields(errs[len(errs)-1]), " ")
	if len(last) > 80 {
		last = last[:77] + "..."
	}
	if len(errs) > 1 {
		return last + " (+" + fmtID(int64(len(errs)-1)) + " earlier)"
	}
	return last
}

func jobsView(list []jobs.Job) view {
	v := view{Data: list, Headers: []string{"id", "kind", "state", "args", "attempt", "attempted", "overdue", "last error"}}
	for _, j := range list {
		v.Rows = append(v.Rows, []string{fmtID(j.ID), j.Kind, j.State, j.Args, fmtID(int64(j.Attempt)) + "/" + fmtID(int64(j.MaxAttempts)),
			fmtTimePtr(j.AttemptedAt), j.Overdue, errorsCell(j.Errors)})
	}
	return v
}

func (r *Root) jobsListCmd() *cobra.Command {
	return r.verb("list", "List stuck jobs, oldest first: running past their timeout (their process died), "+
		"retryable after a failure, or discarded after their last attempt", cobra.NoArgs,
		func(cmd *cobra.Command, _ []string, b admin.Backend) error {
			list, err := b.StuckJobs(cmd.Context())
			if err != nil {
				return err
			}
			if err := render(cmd, jobsView(list)); err != nil {
				return err
			}
			if len(list) == 0 {
				note(cmd, "no stuck jobs")
			}
			return nil
		})
}

func (r *Root) jobsRetryCmd() *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "retry (ID | --all-stuck)",
		Short: "Run a stuck job again now (one that used its attempts gets one more); --all-stuck retries every job jobs list shows",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if all == (len(argv) == 1) {
				return usageErr(errorf("give a job id or --all-stuck"))
			}
			var id int64
			if !all {
				var err error
				if id, err = parseID("job id", argv[0]); err != nil {
					return err
				}
			}
			return r.withBackend(cmd, func(b admin.Backend) error {
				if all {
					list, err := b.RetryStuckJobs(cmd.Context())
					if err != nil {
						return err
					}
					if err := render(cmd, jobsView(list)); err != nil {
						return err
					}
					note(cmd, "%d jobs retried", len(list))
					return nil
				}
				return renderAs(cmd, func(j jobs.Job) view { return jobsView([]jobs.Job{j}) })(b.RetryJob(cmd.Context(), id))
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all-stuck", false, "retry every stuck job")
	return cmd
}
