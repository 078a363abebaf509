"""Python assertions of scripted.yaml, called as promptfoo calls them: (output, context)."""


def get_assert(output, context):
    # The rendered prompt and the test's vars are in the context.
    return context["prompt"].startswith("Summarize") and context["vars"]["text"] in output


def mentions_sea(output, context):
    found = "sea" in output
    return {"pass": found, "score": 1.0 if found else 0.0, "reason": "looked for the sea"}
