/**
 * The Python side of a `python` grader, run as `python3 -c DRIVER`. It speaks JSON lines on the stdout it was given,
 * after pointing `sys.stdout` at stderr, so that a user's `print` never breaks the protocol. First line in: the setup
 * (`file` or `module` or `source`, `function`, `kwargs`); first line out: `{"ready": true}` or `{"error": …}`. Then
 * each line in is `{"id", "args"}` and each line out `{"id", "value"}` or `{"id", "error"}`. It ends at end of input.
 */
export const PYTHON_DRIVER = String.raw`
import importlib, importlib.util, json, os, sys, traceback
protocol = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr
def send(message):
    protocol.write(json.dumps(message, default=repr) + "\n")
def load(setup):
    if setup.get("source") is not None:
        scope = {"__name__": "proctor_python_grader"}
        exec(compile(setup["source"], "<source>", "exec"), scope)
        return scope.get(setup["function"])
    if setup.get("module") is not None:
        return getattr(importlib.import_module(setup["module"]), setup["function"], None)
    spec = importlib.util.spec_from_file_location("proctor_python_grader", setup["file"])
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(setup["file"])))
    spec.loader.exec_module(module)
    return getattr(module, setup["function"], None)
try:
    setup = json.loads(sys.stdin.readline())
    function = load(setup)
    if not callable(function):
        raise LookupError("defines no function " + repr(setup["function"]))
    kwargs = setup.get("kwargs") or {}
    send({"ready": True})
except BaseException as error:
    send({"error": (type(error).__name__ + ": " + str(error)).strip()})
    sys.exit(0)
for line in sys.stdin:
    request = json.loads(line)
    try:
        send({"id": request["id"], "value": function(*request["args"], **kwargs)})
    except BaseException as error:
        last = traceback.extract_tb(error.__traceback__)[-1]
        send({"id": request["id"], "error": type(error).__name__ + ": " + str(error) + " (line " + str(last.lineno) + ")"})
`
