import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Exit codes","description":"","frontmatter":{},"headers":[],"relativePath":"reference/exit-codes.md","filePath":"reference/exit-codes.md"}');
const _sfc_main = { name: "reference/exit-codes.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="exit-codes" tabindex="-1">Exit codes <a class="header-anchor" href="#exit-codes" aria-label="Permalink to &quot;Exit codes&quot;">​</a></h1><div><p>Every <code>proctor</code> command exits with one of these; CI branches on them (<a href="./../guide/ci.html">the CI guide</a>).</p><table tabindex="0"><thead><tr><th>Code</th><th>Meaning</th></tr></thead><tbody><tr><td><code>0</code></td><td>Done: the run finished, its results are valid and its mean score is not below --fail-under.</td></tr><tr><td><code>1</code></td><td>The run failed, its results are not valid (too many errors or missing rollouts), or its mean score is below --fail-under; a watched job failed.</td></tr><tr><td><code>2</code></td><td>Bad usage or config (a flag, a key, a file): nothing ran. The message names what was wrong and where.</td></tr><tr><td><code>130</code></td><td>Stopped by Ctrl-C or SIGTERM: finished results are kept and the run is resumable with --resume.</td></tr></tbody></table></div></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/exit-codes.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const exitCodes = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  exitCodes as default
};
