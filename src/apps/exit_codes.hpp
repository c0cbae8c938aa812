// Documented exit codes of the barracuda command (docs/cli.md).
#pragma once

namespace barracuda::apps {

enum ExitCode : int {
    Ok = 0,
    InternalError = 1,  // a bug or an unexpected failure
    UsageError = 2,     // bad command line (unknown option, missing value)
    CaseInvalid = 3,    // the case file or a --set value is invalid
    NoResources = 4,    // no GPU for backend = cuda, not enough memory
    Diverged = 5,       // the run became unstable; the last good output is kept
    OutputFailed = 6,   // output could not be written
    ValidationFailed = 7,  // barracuda validate: a case failed its comparison or could not run
    Stopped = 8,           // barracuda run stopped by SIGINT/SIGTERM; a checkpoint was saved to go on from
};

}  // namespace barracuda::apps
