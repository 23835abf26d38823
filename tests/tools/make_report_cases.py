#!/usr/bin/env python3
"""Writes the analysis.md validator corpus (tests/data/report_cases/).

Usage: make_report_cases.py OUT_DIR [TRACELENS_ROOT]

Each case is a directory OUT_DIR/<case>/ holding analysis.md (absent for the file-not-found
case), priority_data.json and category_data/*_metrics.json as the case needs. cases.json lists
every case with the comparison_scope it is validated with ("standalone", "comparative" or null
for Python's None) and what it exercises. With TRACELENS_ROOT (the directory holding the
TraceLens package), TraceLens's own validate_report is run on every case
(tracelens_validate_report.py) and its verdicts are written to expected.json.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

RED, YELLOW, GREEN, CHECK, ARROW = "\U0001F534", "\U0001F7E1", "\U0001F7E2", "\u2705", "\u2192"

ARGS_GEMM = "((8944, 1024), (1024, 2816)) bf16"
ARGS_SDPA = "((16, 16, 559, 64),) bf16"

METRICS = {
    "gemm_metrics.json": {
        "status": "OK",
        "operations": [
            {"name": "aten::mm", "args": ARGS_GEMM, "time_ms": 4.2},
            {"name": "aten::addmm", "args": "((1024,), (8944, 1024)) bf16", "time_ms": 1.1},
        ],
        "category_findings": [],
    },
    "sdpa_fwd_metrics.json": {
        "status": "OK",
        "operations": [{"name": "aten::sdpa", "args": ARGS_SDPA, "time_ms": 2.0}],
        "category_findings": [],
    },
}

PRIORITY = {
    "baseline_ms": 40.0,
    "priorities": [
        {"rank": 1, "category": "gemm", "display_name": "GEMM", "impact_score": 4.11,
         "impact_score_low": 3.52, "impact_score_high": 4.7, "source": "findings_rollup"},
        {"rank": 2, "category": "sdpa_fwd", "display_name": "SDPA_fwd", "impact_score": 0.82,
         "impact_score_low": 0.7, "impact_score_high": 0.94, "source": "findings_rollup"},
        {"rank": 3, "category": "elementwise", "display_name": "elementwise",
         "impact_score": None, "gpu_kernel_time_ms": 0.028, "source": "manifest_fallback"},
    ],
    "recommendations": [],
    "findings": [
        {"category": "gemm", "category_rank": 1, "global_rank": 1, "impact_score": 4.11,
         "impact_score_low": 3.52, "impact_score_high": 4.7, "estimate_method": "quantified"},
        {"category": "sdpa_fwd", "category_rank": 1, "global_rank": 2, "impact_score": 0.82,
         "impact_score_low": 0.7, "impact_score_high": 0.94, "estimate_method": "quantified"},
    ],
    "all_estimates": [],
}


def exec_summary(comparative):
    if comparative:
        return (
            "## Executive Summary\n\nTrace 2 is 12.0% faster than Trace 1.\n\n"
            "| Metric | Trace 1 - (MI300X) | Trace 2 - (MI300X) | Difference |\n"
            "|--------|----|----|----|\n"
            "| Total Time | 40.000 ms | 35.200 ms | -4.800 ms (-12.0%) |\n"
            "| Compute % | 80.0% | 85.0% | +5.0% |\n"
            "| Idle % | 20.0% | 15.0% | -5.0% |\n"
            "| Exposed Communication % | 0.0% | 0.0% | +0.0% |\n"
            "| Top Bottleneck Category | GEMM (40.6%) | GEMM (38.0%) | \u2014 |\n\n")
    return (
        "## Executive Summary\n\nThe trace holds 40.000 ms of GPU time on MI300X: 80.0% "
        "computation, 20.0% idle, 0.0% exposed communication.\n\n"
        "| Metric | Value |\n|--------|-------|\n"
        "| Total Time | 40.000 ms |\n| Compute % | 80.0% |\n| Idle % | 20.0% |\n"
        "| Exposed Communication % | 0.0% |\n| Top Bottleneck Category | GEMM (40.6%) |\n\n")


def top_ops(priorities):
    rows = ["<!-- impact-begin kind=top_ops -->",
            "| Rank | Category | Time (ms) | % of Compute Time | Ops |",
            "|------|----------|-----------|-------------------|-----|"]
    for p in priorities:
        low = "null" if p["impact_score"] is None else repr(p["impact_score_low"])
        high = "null" if p["impact_score"] is None else repr(p["impact_score_high"])
        rows.append(f"| {p['rank']} | {p['display_name']} | 13.0 | 40.6% | 3 | "
                    f"<!-- top-ops-row low={low} high={high} -->")
    rows.append("<!-- impact-end -->")
    return "\n".join(rows) + "\n\n"


def compute_card(n, f, title):
    icon = RED if n == 1 else YELLOW if n == 2 else GREEN
    return (f"### {icon} P{n}: {title}\n\n**Insight**: measured facts.\n\n"
            f"**Action**: one concrete action.\n\n"
            f"<!-- impact-begin kind=p_item category={f['category']} low={f['impact_score_low']} "
            f"mid={f['impact_score']} high={f['impact_score_high']} -->\n"
            f"**Impact**: impact_score: {f['impact_score']}\n<!-- impact-end -->\n\n"
            f"{ARROW} *See [Detailed Analysis: Compute kernel insights > P{n}]"
            f"(#detailed-analysis-compute-p{n}) for details*\n\n---\n\n")


def compute_detail(n, args, title, comparative):
    icon = RED if n == 1 else YELLOW if n == 2 else GREEN
    if comparative:
        table = ("| Operation | Args (T1) | Kernel Path | Kernel Name | Trace 1 Time (ms) | "
                 "Trace 2 Time (ms) | Count (T1/T2) | Difference (ms) | FLOPS/Byte (T1) | "
                 "Bound (T1) |\n|---|---|---|---|---|---|---|---|---|---|\n"
                 f"| aten::mm | {args} | aten::mm | Cijk | 4.2 | 3.1 | 2/2 | -1.1 | 300 | "
                 "compute |\n")
    else:
        table = ("| Operation | Args | Kernel Path | Kernel Name | Time (ms) | %E2E | Count | "
                 "FLOPS/Byte | Efficiency | Bound |\n|---|---|---|---|---|---|---|---|---|---|\n"
                 f"| aten::mm | {args} | aten::mm | Cijk | 4.2 | 10.5 | 2 | 300 | 41% | "
                 "compute |\n")
    return (f'<a id="detailed-analysis-compute-p{n}"></a>\n'
            f"<!-- reasoning-candidate tier=compute rank={n} -->\n"
            f"#### {icon} P{n}: {title}\n**Identification:** surfaced by efficiency.\n\n"
            f"**Data:**\n\n{table}\n**Reasoning for Slowdown:** why.\n\n"
            f"**Resolution:** what helps.\n\n**Impact estimate:**\n"
            f"<!-- impact-begin kind=detail_estimate low=1.0 high=2.0 -->\n"
            f"- Low end impact_score: 1.0\n- High end impact_score: 2.0\n<!-- impact-end -->\n\n")


def fusion_card(impact):
    return (f"### {RED} P1: Unfused RMSNorm\n\n**Insight**: 8 kernels per instance.\n\n"
            "**Action**: fuse them.\n\n"
            "<!-- impact-begin kind=p_item low=10.04 mid=11.72 high=13.39 -->\n"
            f"**Impact**: {impact}\n<!-- impact-end -->\n\n"
            "**Confidence**: High -- deterministic signals\n\n"
            f"{ARROW} *See [Detailed Analysis: Kernel fusion insights > P1]"
            "(#detailed-analysis-fusion-P1) for details*\n\n---\n\n")


def build(comparative=False, priority=PRIORITY, fusion_impact=None, system=True,
          args=(ARGS_GEMM, ARGS_SDPA)):
    findings = priority["findings"]
    title = ("# Qwen2 - Comparative Analysis: MI300X vs MI300X\n\n" if comparative
             else "# Qwen2 - MI300X Standalone Analysis\n\n")
    out = [title, exec_summary(comparative)]
    out.append("## Compute Kernel Optimizations\n\nFindings from per-category analysis.\n\n"
               "### Top Operations\n\n")
    out.append(top_ops(priority["priorities"]))
    if not findings:
        out.append(f"{CHECK} No compute kernel optimization opportunities identified.\n\n---\n\n")
    titles = ["Memory-bound GEMMs (hipBLASLt)", "Flash attention below roofline"]
    for i, f in enumerate(findings):
        out.append(compute_card(i + 1, f, titles[i % 2]))
    out.append("## Kernel Fusion Opportunities (Experimental)\n\n"
               "> **Note:** Kernel fusion analysis is experimental.\n\n")
    if fusion_impact is None:
        fusion_impact = ("impact_score: 11.72" if comparative else
                         "impact_score: 11.72 (perf-model coverage 8/8 kernels)")
    out.append(fusion_card(fusion_impact))
    out.append("## System-Level Optimizations\n\n> **Note:** exploratory.\n\n")
    if system:
        out.append(f"### {RED} P1: GPU idle while the host synchronizes\n\n"
                   "**Insight**: 20% idle.\n\n**Action**: remove the sync.\n\n"
                   "<!-- impact-begin kind=p_item low=null mid=null high=null -->\n"
                   "**Impact**: Not quantifiable from trace data\n<!-- impact-end -->\n\n---\n\n")
    else:
        out.append(f"{CHECK} No system-level bottlenecks detected.\n\n---\n\n")
    out.append("## Detailed Analysis\n\n### Compute Kernel Insights\n\n")
    for i, _ in enumerate(findings):
        out.append(compute_detail(i + 1, args[i % 2], titles[i % 2], comparative))
    out.append("### Kernel Fusion Insights\n\n"
               '<a id="detailed-analysis-fusion-P1"></a>\n'
               "<!-- reasoning-candidate tier=fusion rank=1 -->\n"
               f"#### {RED} P1: Unfused RMSNorm (4.789 ms, 49 instances)\n\n"
               "**Identification:** many kernels.\n\n**Data:**\n\n"
               "| Kernel | Type | Duration (us) | Perf model |\n|---|---|---|---|\n"
               "| rms_kernel | Elementwise | 12.3 | Yes |\n\n**Impact estimate:** see card\n\n")
    out.append("### System-Level Insights\n\n")
    if system:
        out.append('<a id="detailed-analysis-system-p1"></a>\n'
                   "<!-- reasoning-candidate tier=system rank=1 -->\n"
                   f"#### {RED} P1: GPU idle while the host synchronizes\n"
                   "**Identification:** idle gaps.\n\n**Impact estimate:** Not quantifiable "
                   "from trace data\n\n")
    out.append("---\n\n## Appendix\n\n### Model Architecture\n- **Model**: Qwen2\n"
               "- **Architecture**: Decoder-only Transformer\n- **Scale**: ~0.5B\n"
               "- **Precision**: BF16\n\n### Hardware Reference\n- **Platform**: MI300X\n")
    return "".join(out)


def variant(text, old, new, count=1):
    if old not in text:
        raise SystemExit(f"mutation target not found: {old!r}")
    return text.replace(old, new, count)


def cases():
    base = build()
    comp = build(comparative=True)
    empty_pd = dict(PRIORITY, priorities=[], findings=[])
    heuristic_pd = json.loads(json.dumps(PRIORITY))
    heuristic_pd["findings"][1]["estimate_method"] = "heuristic"
    c = {}

    def add(name, scope, desc, report, pd=PRIORITY, metrics=True, extra=None):
        c[name] = dict(scope=scope, description=desc, report=report, pd=pd, metrics=metrics,
                       extra=extra or {})

    add("good_standalone", "standalone", "A complete standalone report.", base)
    add("good_comparative", "comparative", "A complete comparative report (Args (T1) tables, "
        "fusion Impact without the coverage parenthetical).", comp)
    add("good_no_findings", "standalone", "Honest empty report: no compute P-items, empty "
        "priorities, header-only Top Operations table, no system items.",
        build(priority=empty_pd, system=False), pd=empty_pd)
    add("good_crlf", "standalone", "The good report with CRLF line ends.",
        base.replace("\n", "\r\n"))
    add("good_without_priority_data", "standalone", "No priority_data.json: R1-R4 are skipped.",
        base, pd=None)
    add("good_unparsable_priority_data", "standalone", "priority_data.json that is not JSON: "
        "R1-R4 are skipped.", base, pd="{not json")
    add("good_without_metrics", "standalone", "No category_data/: the Args check is skipped.",
        variant(base, ARGS_GEMM + " |", "reformatted args |"), metrics=False)
    add("good_heuristic_finding", "standalone", "A heuristic finding keeps its P-item.", base,
        pd=heuristic_pd)
    add("missing_file", "standalone", "No analysis.md.", None)
    add("too_short", "standalone", "Fewer than 100 characters after strip().",
        "# Report\n\n## Executive Summary\n\nNothing.\n")
    add("missing_sections", "standalone", "Appendix and System-Level sections removed.",
        variant(variant(base, "## Appendix", "## Annex"), "## System-Level Optimizations",
                "## System Optimizations"))
    add("no_metrics_table", "standalone", "No '|' under the Executive Summary.",
        variant(base, exec_summary(False), "## Executive Summary\n\nText only, no table at "
                "all in this block of the report.\n\n"))
    add("missing_metrics_row", "standalone", "The Idle % row is gone.",
        variant(base, "| Idle % | 20.0% |\n", ""))
    add("placeholder_values", "standalone", "Template values left in the metrics table.",
        variant(variant(base, "| 40.000 ms |", "| X ms |"), "| 80.0% |", "| Y% |"))
    add("unfilled_library", "standalone", "A card title keeps the <Library> placeholder.",
        variant(base, "Memory-bound GEMMs (hipBLASLt)", "Memory-bound GEMMs (<Library>)"))
    add("brief_title_not_detected", "standalone", "<Brief Title> is in the known set but the "
        "placeholder pattern <[A-Z][a-z_ ]+> cannot match it (quirk: passes).",
        variant(base, "Flash attention below roofline", "<Brief Title>", 2))
    add("args_not_verbatim", "standalone", "An Args cell reformatted.",
        variant(base, "| aten::mm | " + ARGS_SDPA, "| aten::mm | (16,16,559,64) bf16"))
    add("args_first_column_not_checked", "standalone", "A table whose first column is Args "
        "does not match the header pattern (quirk: passes).",
        variant(base, "### Compute Kernel Insights\n\n", "### Compute Kernel Insights\n\n"
                "| Args | Note |\n|---|---|\n| not an arg | x |\n\n"))
    add("args_comparative_t1_mismatch", "comparative", "An Args (T1) cell not in the metrics.",
        variant(comp, "| aten::mm | " + ARGS_GEMM, "| aten::mm | ((1, 2)) bf16"))
    add("fusion_standalone_missing_coverage", "standalone", "Standalone fusion Impact without "
        "the perf-model coverage parenthetical.", build(fusion_impact="impact_score: 11.72"))
    add("fusion_scope_none_with_coverage", None, "comparison_scope None checks fusion Impact "
        "lines the comparative way: the standalone format fails.", base)
    add("fusion_comparative_with_coverage", "comparative", "Comparative fusion Impact with the "
        "coverage parenthetical.",
        build(comparative=True,
              fusion_impact="impact_score: 11.72 (perf-model coverage 8/8 kernels)"))
    add("fusion_comparative_not_numeric", "comparative", "Comparative fusion Impact that is "
        "not 'impact_score: X'.", build(comparative=True, fusion_impact="large"))
    add("fusion_not_quantifiable_standalone", "standalone", "Standalone fusion Impact 'Not "
        "quantifiable from trace data'.",
        build(fusion_impact="Not quantifiable from trace data"))
    add("r1_extra_heading", "standalone", "One more compute P heading than findings.",
        variant(base, "## Kernel Fusion Opportunities", f"### {GREEN} P3: Extra item\n\n"
                "## Kernel Fusion Opportunities"))
    add("r2_category_mismatch", "standalone", "A P-item marker names another category.",
        variant(base, "kind=p_item category=sdpa_fwd", "kind=p_item category=gemm"))
    add("r2_category_missing", "standalone", "A P-item marker without category=.",
        variant(base, "kind=p_item category=sdpa_fwd ", "kind=p_item "))
    add("r2_extra_marker", "standalone", "More p_item markers than findings.",
        variant(base, "## Kernel Fusion Opportunities",
                "<!-- impact-begin kind=p_item category=gemm low=1 mid=1 high=1 -->\n"
                "<!-- impact-end -->\n\n## Kernel Fusion Opportunities"))
    add("r3_value_mismatch", "standalone", "mid off by 0.1.",
        variant(base, "mid=0.82", "mid=0.92"))
    add("r3_within_tolerance", "standalone", "mid off by 0.004 (within 0.005).",
        variant(base, "mid=0.82", "mid=0.824"))
    add("r3_null_against_number", "standalone", "low=null where findings has a number.",
        variant(variant(base, "low=0.7 mid=0.82 high=0.94", "low=null mid=null high=null"),
                "impact_score: 0.82", "Not quantifiable"))
    add("r3_not_a_number", "standalone", "high=abc on a P-item: compared as text.",
        variant(base, "mid=0.82 high=0.94", "mid=0.82 high=abc"))
    add("top_ops_row_attrs_ignored", "standalone", "The top-ops-row trailer values are not "
        "checked.", variant(base, "<!-- top-ops-row low=0.7 high=0.94", "<!-- top-ops-row "
                            "low=0.7 high=abc"))
    add("r4_top_ops_rows", "standalone", "Top Operations with one row fewer than priorities.",
        variant(base, "| 3 | elementwise |", "<!-- x --> 3 | elementwise |"))
    add("r4_separator_variants", "standalone", "Aligned separator rows (:---:) are not data.",
        variant(base, "|------|----------|-----------|-------------------|-----|",
                "| :---: | :--- | ---: | --- | --- |\n|---|---|---|---|---|"))
    add("r5_missing_candidate", "standalone", "A compute heading without its "
        "reasoning-candidate marker.",
        variant(base, "<!-- reasoning-candidate tier=compute rank=2 -->\n", ""))
    add("r5_wrong_tier", "standalone", "A compute block marked tier=system.",
        variant(base, "tier=compute rank=2", "tier=system rank=2"))
    add("r5_uppercase_tier", "standalone", "tier=COMPUTE counts as compute (lower()).",
        variant(base, "tier=compute rank=2", "tier=COMPUTE rank=2"))
    add("marker_unpaired", "standalone", "An impact-end removed.",
        variant(base, "<!-- impact-end -->\n\n**Confidence**", "\n\n**Confidence**"))
    add("marker_unknown_kind", "standalone", "kind=summary is not a known kind.",
        variant(base, "## Appendix", "<!-- impact-begin kind=summary -->\n<!-- impact-end -->\n\n"
                "## Appendix"))
    add("marker_missing_kind", "standalone", "An impact-begin without kind=.",
        variant(base, "## Appendix", "<!-- impact-begin low=1 mid=1 high=1 -->\n"
                "<!-- impact-end -->\n\n## Appendix"))
    add("marker_mixed_null", "standalone", "low=null with numeric mid/high on a fusion card.",
        variant(base, "low=10.04 mid=11.72", "low=null mid=11.72"))
    add("marker_missing_attr", "standalone", "A detail_estimate without high=.",
        variant(base, "kind=detail_estimate low=1.0 high=2.0", "kind=detail_estimate low=1.0"))
    add("missing_top_ops", "standalone", "The Top Operations marker block is gone.",
        variant(variant(base, "<!-- impact-begin kind=top_ops -->\n", ""),
                "-->\n<!-- impact-end -->\n\n### ", "-->\n\n### "))
    add("raises_operations_not_list", "standalone", "A metrics file whose operations is not a "
        "list: TraceLens's validator raises.", base,
        extra={"category_data/bad_metrics.json": '{"operations": {"a": 1}}'})
    add("several_errors", "standalone", "Missing section, placeholder and R3 together.",
        variant(variant(variant(base, "## Appendix", "## Annex"), "| 40.000 ms |", "| X ms |"),
                "mid=4.11", "mid=5.11"))
    return c


def write_case(root, name, case):
    d = os.path.join(root, name)
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    if case["report"] is not None:
        with open(os.path.join(d, "analysis.md"), "w", encoding="utf-8", newline="") as f:
            f.write(case["report"])
    pd = case["pd"]
    if pd is not None:
        with open(os.path.join(d, "priority_data.json"), "w") as f:
            f.write(pd if isinstance(pd, str) else json.dumps(pd, indent=2))
    if case["metrics"]:
        os.makedirs(os.path.join(d, "category_data"))
        for file_name, metrics in METRICS.items():
            with open(os.path.join(d, "category_data", file_name), "w") as f:
                json.dump(metrics, f, indent=2)
    for rel, text in case["extra"].items():
        with open(os.path.join(d, rel), "w") as f:
            f.write(text)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    os.makedirs(root, exist_ok=True)
    all_cases = cases()
    listing = {}
    for name, case in sorted(all_cases.items()):
        write_case(root, name, case)
        listing[name] = {"scope": case["scope"], "description": case["description"]}
    with open(os.path.join(root, "cases.json"), "w") as f:
        json.dump(listing, f, indent=2, ensure_ascii=False)
        f.write("\n")
    if len(argv) > 2:
        expected = {}
        for name, case in sorted(listing.items()):
            scope = case["scope"] or "none"
            out = subprocess.run(
                [sys.executable, os.path.join(HERE, "tracelens_validate_report.py"), argv[2],
                 scope, os.path.join(root, name)],
                check=True, capture_output=True, text=True).stdout
            verdict = json.loads(out)
            verdict.pop("dir")
            expected[name] = verdict
        with open(os.path.join(root, "expected.json"), "w") as f:
            json.dump(expected, f, indent=2, ensure_ascii=False)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
