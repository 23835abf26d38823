#include "loupe/core/report/model_info.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/layout.hpp"
#include "loupe/text.hpp"

namespace loupe::core {

namespace {

// Model classes name a family plus a head or container suffix (BertLMHeadModel, Qwen2Model,
// Owlv2ForObjectDetection); the longest suffix is taken off first.
constexpr std::array kRootSuffixes = {"ForConditionalGeneration",
                                      "ForSequenceClassification",
                                      "ForImageClassification",
                                      "ForVideoClassification",
                                      "ForObjectDetection",
                                      "ForCausalLM",
                                      "ForMaskedLM",
                                      "LMHeadModel",
                                      "Transformer2DModel",
                                      "PreTrainedModel",
                                      "Model"};

struct Family {
  const char* prefix;  // class-name prefix (case-sensitive)
  const char* name;    // how the report names it
};
// Families whose published names differ from their class prefix. Any other prefix is shown
// as the class names it.
constexpr std::array kFamilies = {
    Family{"Bert", "BERT"},
    Family{"Qwen2Moe", "Qwen2-MoE"},
    Family{"Qwen2", "Qwen2 family (Qwen1.5 / Qwen2)"},
    Family{"Qwen3Moe", "Qwen3-MoE"},
    Family{"Qwen3", "Qwen3"},
    Family{"Owlv2", "OWLv2"},
    Family{"Timesformer", "TimeSformer"},
    Family{"ViT", "ViT"},
    Family{"ResNet", "ResNet"},
    Family{"GptOss", "GPT-OSS"},
    Family{"Llama", "Llama"},
    Family{"Mistral", "Mistral"},
    Family{"Mixtral", "Mixtral"},
    Family{"Flux1", "FLUX.1"},
    Family{"Flux", "FLUX"},
    Family{"SD3", "Stable Diffusion 3"},
    Family{"Clip", "CLIP"},
    Family{"CLIP", "CLIP"},
    Family{"T5", "T5"},
    Family{"GPT2", "GPT-2"},
    Family{"DeepseekV3", "DeepSeek-V3"},
    Family{"DeepseekV2", "DeepSeek-V2"},
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
using loupe::text::contains;
bool any_module(const ModelEvidence& e, std::string_view part) {
  return std::any_of(e.modules.begin(), e.modules.end(),
                     [&](const std::string& m) { return contains(m, part); });
}

struct Root {
  std::string cls;
  std::string family;  // display name
  std::string prefix;
};

std::string display_name(const std::string& prefix) {
  for (const auto& f : kFamilies) {
    if (prefix.rfind(f.prefix, 0) == 0) return f.name;
  }
  return prefix;
}

// The model files of vLLM / SGLang (model_executor/models/<file>.py, srt/models/<file>.py)
// and the family each serves; any other file is shown by its name.
struct EngineFile {
  const char* file;
  const char* name;
};
constexpr std::array kEngineFiles = {
    EngineFile{"qwen3_moe", "Qwen3-MoE"},
    EngineFile{"qwen3", "Qwen3"},
    EngineFile{"qwen2_moe", "Qwen2-MoE"},
    EngineFile{"qwen2", "Qwen2 family (Qwen1.5 / Qwen2)"},
    EngineFile{"llama", "Llama"},
    EngineFile{"mistral", "Mistral"},
    EngineFile{"mixtral", "Mixtral"},
    EngineFile{"gpt_oss", "GPT-OSS"},
    EngineFile{"deepseek_v2", "DeepSeek-V2 / V3"},
    EngineFile{"deepseek_v3", "DeepSeek-V3"},
    EngineFile{"gemma3", "Gemma 3"},
    EngineFile{"gemma2", "Gemma 2"},
    EngineFile{"gemma", "Gemma"},
};
std::optional<Root> engine_root(const ModelEvidence& e) {
  // Only known families: the folders also hold helpers (utils.py, interfaces.py, ...).
  for (const auto& f : kEngineFiles) {
    for (const auto& file : e.engine_model_files) {
      if (file == f.file) return Root{"models/" + file + ".py", f.name, file};
    }
  }
  return std::nullopt;
}

// A diffusion pipeline is named by its denoiser (xFuserFlux1Transformer2DWrapper,
// FluxTransformer2DModel, UNet2DConditionModel), not by the text encoders that run beside it.
std::optional<Root> diffusion_root(const ModelEvidence& e) {
  for (const auto& m : e.modules) {
    for (const std::string_view marker : {"Transformer2D", "UNet2DCondition"}) {
      const auto at = m.find(marker);
      if (at == std::string::npos) continue;
      std::string prefix = m.substr(0, at);
      if (prefix.rfind("xFuser", 0) == 0) prefix.erase(0, 6);
      if (prefix.empty()) prefix = std::string(marker);
      return Root{m, display_name(prefix), prefix};
    }
  }
  return std::nullopt;
}

// The model class: a module named <family><suffix>, or a known family's bare name (ResNet).
// Heads (For..., LMHeadModel) win over bare containers (...Model).
std::optional<Root> find_root(const ModelEvidence& e) {
  if (auto diffusion = diffusion_root(e)) return diffusion;
  std::optional<Root> best;
  size_t best_rank = kRootSuffixes.size() + 1;
  for (const auto& m : e.modules) {
    for (size_t i = 0; i < kRootSuffixes.size(); ++i) {
      const std::string_view suffix = kRootSuffixes[i];
      std::string prefix;
      if (ends_with(m, suffix) && m.size() > suffix.size()) {
        prefix = m.substr(0, m.size() - suffix.size());
      } else if (suffix == "Model") {
        for (const auto& f : kFamilies) {
          if (m == f.prefix) prefix = m;
        }
      }
      if (prefix.empty()) continue;
      if (i < best_rank) {
        best_rank = i;
        best = Root{m, display_name(prefix), prefix};
      }
      break;
    }
  }
  return best;
}

// "((8944, 1024), (1024, 2816))" -> the shapes in order; scalars and lists as empty shapes.
std::vector<std::vector<long long>> parse_dims(const std::string& text) {
  std::vector<std::vector<long long>> shapes;
  int depth = 0;
  std::vector<long long> current;
  long long value = 0;
  bool in_number = false;
  for (const char c : text) {
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      in_number = true;
      continue;
    }
    if (in_number) {
      current.push_back(value);
      value = 0;
      in_number = false;
    }
    if (c == '(' || c == '[') {
      ++depth;
      if (depth == 2) current.clear();
    } else if (c == ')' || c == ']') {
      if (depth == 2) shapes.push_back(current);
      --depth;
    }
  }
  return shapes;
}

std::vector<std::string> parse_types(const std::string& text) {
  std::vector<std::string> types;
  static const std::regex quoted("'([^']*)'");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted);
       it != std::sregex_iterator(); ++it) {
    types.push_back((*it)[1].str());
  }
  return types;
}

std::optional<std::string> precision_of(std::string dtype) {
  for (auto& c : dtype) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (contains(dtype, "float8") || contains(dtype, "fp8")) return "FP8";
  if (contains(dtype, "bfloat16")) return "BF16";
  if (contains(dtype, "half") || dtype == "c10::float16") return "FP16";
  if (dtype == "float" || dtype == "c10::float" || dtype == "float32") return "FP32";
  if (dtype == "double") return "FP64";
  return std::nullopt;
}

// The GEMM ops of the serving engines (aiter, vLLM, SGLang): x[M, K] @ w[N, K]^T. Batched,
// grouped and expert GEMMs are not one linear layer each and are left out.
bool is_engine_gemm(const std::string& op) {
  if (!contains(op, "::")) return false;
  if (!contains(op, "gemm") && !contains(op, "flatmm")) return false;
  return !contains(op, "batched") && !contains(op, "grouped") && !contains(op, "moe") &&
         !contains(op, "te_gemm") && !contains(op, "mhc_");
}
bool is_linear(const std::string& op) {
  return op == "aten::addmm" || op == "aten::mm" || op == "aten::linear" || op == "aten::matmul" ||
         is_engine_gemm(op);
}
bool is_attention(const std::string& op) {
  return contains(op, "scaled_dot_product") || contains(op, "flash_attn") ||
         contains(op, "attention") || contains(op, "::mha_") || contains(op, "fmha") ||
         contains(op, "pa_decode") || contains(op, "mla_");
}
bool is_conv(const std::string& op) { return contains(op, "conv"); }
bool is_matrix_op(const std::string& op) {
  return is_linear(op) || is_attention(op) || is_conv(op) || op == "aten::bmm" ||
         contains(op, "gemm") || contains(op, "scaled_mm");
}

std::string number_text(long long v) { return std::to_string(v); }

// A linear layer as its GEMM op shows it: in features k, out features n.
struct Linear {
  long long k = 0;
  long long n = 0;
  double count = 1.0;
};

std::optional<Linear> linear_of(const ModelEvidence::Op& op) {
  const auto shapes = parse_dims(op.input_dims);
  const auto pair = [](const std::vector<long long>& shape) { return shape.size() == 2; };
  Linear l;
  l.count = std::max(1.0, op.count);
  if (op.name == "aten::mm" && shapes.size() >= 2 && pair(shapes[1])) {
    l.k = shapes[1][0];  // (M, K) @ (K, N)
    l.n = shapes[1][1];
  } else if (op.name == "aten::addmm" && shapes.size() >= 3 && pair(shapes[2])) {
    l.k = shapes[2][0];  // bias, (M, K) @ (K, N)
    l.n = shapes[2][1];
  } else if (op.name == "aten::linear" && shapes.size() >= 2 && pair(shapes[1])) {
    l.n = shapes[1][0];  // x, weight (N, K)
    l.k = shapes[1][1];
  } else if (is_engine_gemm(op.name) && shapes.size() >= 2 && pair(shapes[1]) &&
             !shapes[0].empty() && shapes[0].back() == shapes[1][1]) {
    // x (M, K), w (N, K); MXFP4 operands hold two values per byte (K / 2 columns).
    const bool fp4 = contains(op.name, "fp4") || contains(op.name, "a4w4");
    l.n = shapes[1][0];
    l.k = fp4 ? 2 * shapes[1][1] : shapes[1][1];
  } else {
    return std::nullopt;
  }
  if (l.k <= 0 || l.n <= 0) return std::nullopt;
  return l;
}

std::vector<Linear> linears_of(const ModelEvidence& e) {
  std::vector<Linear> out;
  for (const auto& op : e.ops) {
    if (auto l = linear_of(op)) out.push_back(*l);
  }
  return out;
}

// The LM head: the widest-output linear layer, mapping the hidden size to a vocabulary (at
// least 32000 outputs) and either 8+ times wider than its input or run no more often than any
// other linear layer (once per step, where each decoder layer's run once per layer).
std::optional<Linear> lm_head(const std::vector<Linear>& linears) {
  const auto widest = std::max_element(linears.begin(), linears.end(),
                                       [](const Linear& a, const Linear& b) { return a.n < b.n; });
  if (widest == linears.end() || widest->n < 32000 || widest->n <= widest->k) return std::nullopt;
  if (widest->n >= 8 * widest->k) return *widest;
  for (const auto& l : linears) {
    if (&l != &*widest && l.count < widest->count) return std::nullopt;
  }
  return *widest;
}

// The model width: the LM head's input when there is one, else the dimension that occurs
// most often among the linear layers' weight dimensions (each op row weighted by how often it
// ran); ties go to the larger value.
std::optional<long long> hidden_size(const std::vector<Linear>& linears,
                                     const std::optional<Linear>& head) {
  if (head) return head->k;
  std::map<long long, double> votes;
  for (const auto& l : linears) {
    for (const long long d : {l.k, l.n}) {
      if (d >= 64) votes[d] += l.count;
    }
  }
  std::optional<long long> best;
  double best_votes = 0;
  for (const auto& [d, v] : votes) {
    if (v >= best_votes) {
      best = d;
      best_votes = v;
    }
  }
  return best;
}

// Decoder layers: how often per LM-head run (per step) the layers reading or writing the
// hidden size ran, the most common such ratio (ties: the smaller); nullopt unless whole.
std::optional<long long> layer_count(const std::vector<Linear>& linears, const Linear& head,
                                     long long hidden) {
  std::map<long long, int> ratios;
  for (const auto& l : linears) {
    if ((l.k == head.k && l.n == head.n) || (l.k != hidden && l.n != hidden)) continue;
    const double r = l.count / head.count;
    const auto whole = static_cast<long long>(std::llround(r));
    if (whole >= 1 && std::abs(r - static_cast<double>(whole)) < 1e-9) ++ratios[whole];
  }
  std::optional<long long> best;
  int best_n = 0;
  for (const auto& [r, n] : ratios) {
    if (n > best_n) {
      best = r;
      best_n = n;
    }
  }
  return best;
}

// Attention heads from a serving attention op's q and k: (tokens, heads, head dim).
struct Heads {
  long long q = 0;
  long long kv = 0;
  long long dim = 0;
};
std::optional<Heads> attention_heads(const ModelEvidence& e) {
  for (const auto& op : e.ops) {
    const bool serving = contains(op.name, "unified_attention") || contains(op.name, "mha_") ||
                         contains(op.name, "fmha") || contains(op.name, "varlen");
    const bool sdpa = contains(op.name, "scaled_dot_product");
    if (!serving && !sdpa) continue;
    const auto shapes = parse_dims(op.input_dims);
    if (shapes.size() < 2) continue;
    const auto& q = shapes[0];
    const auto& k = shapes[1];
    if (serving && q.size() == 3 && k.size() == 3 && q[2] == k[2] && k[1] > 0 && q[1] % k[1] == 0) {
      return Heads{q[1], k[1], q[2]};
    }
    if (sdpa && q.size() == 4 && k.size() == 4 && q[3] == k[3] && k[1] > 0 && q[1] % k[1] == 0) {
      return Heads{q[1], k[1], q[3]};  // (batch, heads, sequence, head dim)
    }
  }
  return std::nullopt;
}

std::string billions(double params) {
  char text[32];
  std::snprintf(text, sizeof text, params >= 1e9 ? "%.1f" : "%.2f", params / 1e9);
  return text;
}

std::optional<long long> max_conv_channels(const ModelEvidence& e) {
  std::optional<long long> best;
  for (const auto& op : e.ops) {
    if (!is_conv(op.name)) continue;
    const auto shapes = parse_dims(op.input_dims);
    if (shapes.size() >= 2 && shapes[1].size() >= 4) {
      best = std::max(best.value_or(0), shapes[1][0]);
    }
  }
  return best;
}

std::string encoder_scale(long long d) {
  if (d <= 256) return "tiny";
  if (d <= 512) return "small";
  if (d <= 768) return "base";
  if (d <= 1024) return "large";
  return "huge";
}
std::string decoder_scale(long long d) {
  if (d <= 1024) return "~0.5B (under 1B)";
  if (d <= 2048) return "~1-2B";
  if (d <= 3072) return "~3-4B";
  if (d <= 4096) return "~7-8B";
  if (d <= 5120) return "~13-14B";
  if (d <= 7168) return "~30-34B";
  return "~70B or larger";
}

}  // namespace

ModelEvidence gather_model_evidence(const Model& model, bool comparative) {
  ModelEvidence e;
  const std::string dir = layout::trace1_report_dir(comparative);
  const CsvTable* table = model.table(dir + "unified_perf_summary.csv");
  if (table == nullptr) return e;
  return evidence_from_unified_summary(*table);
}

ModelEvidence evidence_from_unified_summary(const CsvTable& table) {
  ModelEvidence e;
  const auto name = table.find_column("name");
  const auto type = table.find_column("Input type");
  const auto dims = table.find_column("Input Dims");
  const auto stack = table.find_column("call_stack_full");
  const auto count = table.find_column("operation_count");
  const auto time = table.find_column("Kernel Time (\xC2\xB5s)_sum");
  if (!name) return e;
  std::set<std::string> modules;
  std::set<std::string> engine_files;
  static const std::regex module_re(R"(nn\.Module:\s*([^\s',\]]+))");
  static const std::regex engine_file_re(R"((?:model_executor/models|srt/models)/(\w+)\.py)");
  for (size_t r = 0; r < table.row_count(); ++r) {
    ModelEvidence::Op op;
    op.name = table.cell(r, *name).text;
    if (type) op.input_type = table.cell(r, *type).text;
    if (dims) op.input_dims = table.cell(r, *dims).text;
    if (count && table.cell(r, *count).kind == CsvCell::Kind::Number) {
      op.count = table.cell(r, *count).number;
    }
    if (time && table.cell(r, *time).kind == CsvCell::Kind::Number) {
      op.kernel_time_us = table.cell(r, *time).number;
    }
    if (stack) {
      const std::string_view s = table.cell(r, *stack).text;
      for (auto it = std::cregex_iterator(s.data(), s.data() + s.size(), module_re);
           it != std::cregex_iterator(); ++it) {
        std::string m = (*it)[1].str();
        // Instance suffixes (Qwen2RMSNorm_0) name the same class.
        const auto underscore = m.find_last_of('_');
        if (underscore != std::string::npos && underscore + 1 < m.size() &&
            std::all_of(m.begin() + static_cast<long>(underscore) + 1, m.end(),
                        [](char c) { return c >= '0' && c <= '9'; })) {
          m.erase(underscore);
        }
        modules.insert(m);
      }
      for (auto it = std::cregex_iterator(s.data(), s.data() + s.size(), engine_file_re);
           it != std::cregex_iterator(); ++it) {
        engine_files.insert((*it)[1].str());
      }
    }
    e.ops.push_back(std::move(op));
  }
  e.modules.assign(modules.begin(), modules.end());
  e.engine_model_files.assign(engine_files.begin(), engine_files.end());
  return e;
}

ModelInfo identify_model(const ModelEvidence& e) {
  ModelInfo info;
  auto root = find_root(e);
  if (root) {
    info.model = root->family;
    info.evidence.push_back("model: module class " + root->cls);
  } else if ((root = engine_root(e))) {
    info.model = root->family;
    info.evidence.push_back("model: the serving engine's model file " + root->cls +
                            " in the call stacks");
  }

  // Precision: the dtype of the first input of the matrix ops, weighted by kernel time.
  std::map<std::string, double> by_precision;
  double matrix_time = 0;
  for (const auto& op : e.ops) {
    if (!is_matrix_op(op.name)) continue;
    const auto types = parse_types(op.input_type);
    if (types.empty()) continue;
    if (const auto p = precision_of(types.front())) {
      by_precision[*p] += std::max(op.kernel_time_us, 1e-9);
      matrix_time += std::max(op.kernel_time_us, 1e-9);
    }
  }
  if (!by_precision.empty()) {
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto& [p, t] : by_precision) ranked.emplace_back(t, p);
    std::sort(ranked.rbegin(), ranked.rend());
    info.precision = ranked.front().second;
    if (ranked.size() > 1 && ranked[1].first >= 0.1 * matrix_time) {
      char share[32];
      std::snprintf(share, sizeof share, "%.0f%%", ranked[1].first / matrix_time * 100.0);
      info.precision += " (with " + ranked[1].second + " on " + share + " of matrix-op time)";
    }
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", ranked.front().first / matrix_time * 100.0);
    info.evidence.push_back("precision: " + ranked.front().second + " inputs on " + share +
                            " of GEMM/attention/convolution kernel time");
  }

  // Architecture: attention, convolution and linear layers, and the module layout.
  const bool attention_op =
      std::any_of(e.ops.begin(), e.ops.end(), [](const auto& op) { return is_attention(op.name); });
  size_t linear_shapes = 0;
  size_t conv_rows = 0;
  std::set<std::string> seen_linear;
  for (const auto& op : e.ops) {
    if (is_linear(op.name) && seen_linear.insert(op.input_dims).second) ++linear_shapes;
    if (is_conv(op.name)) ++conv_rows;
  }
  const bool attention_module = any_module(e, "Attention");
  const bool transformer =
      attention_module || ((!e.modules.empty() || !e.engine_model_files.empty()) && attention_op) ||
      (attention_op && linear_shapes >= 2);  // a lone attention kernel is not a model
  // Expert modules, or expert kernels the ops name (fused MoE, Triton's matmul_ogs).
  const bool moe = any_module(e, "MoE") || any_module(e, "Moe") || any_module(e, "Experts") ||
                   std::any_of(e.ops.begin(), e.ops.end(), [](const auto& op) {
                     return contains(op.name, "moe") || contains(op.name, "matmul_ogs");
                   });
  const bool has_conv_module = any_module(e, "Conv");
  const auto linears = linears_of(e);
  const auto head = lm_head(linears);
  const auto d = hidden_size(linears, head);
  if (transformer) {
    // A serving engine's model file of a known (decoder) family, or one with an LM head, is a
    // causal language model too.
    const bool decoder = any_module(e, "DecoderLayer") || any_module(e, "ForCausalLM") ||
                         any_module(e, "CausalLM") ||
                         (root && contains(root->cls, "ForCausalLM")) ||
                         (head && !e.engine_model_files.empty()) ||
                         (root && engine_root(e) && root->cls == engine_root(e)->cls);
    const bool dit = any_module(e, "Transformer2D");
    const bool diffusion = dit || any_module(e, "UNet2DCondition");
    const bool vision = any_module(e, "PatchEmbed") || any_module(e, "Vision");
    if (diffusion) {
      info.architecture = dit ? "Diffusion Transformer (with its text encoders and VAE)"
                              : "Diffusion UNet (with its text encoders and VAE)";
    } else if (decoder) {
      info.architecture = "Decoder-only Transformer";
    } else if (vision || (has_conv_module && any_module(e, "Encoder"))) {
      info.architecture = "Vision Transformer (encoder)";
    } else if (any_module(e, "Encoder")) {
      info.architecture = "Transformer encoder";
    } else {
      info.architecture = "Transformer";
    }
    if (moe) info.architecture += " with Mixture-of-Experts";
    info.evidence.push_back(std::string("architecture: ") +
                            (attention_module ? "attention modules" : "attention operators") +
                            (decoder ? ", decoder layers" : "") + (moe ? ", expert modules" : "") +
                            (has_conv_module ? ", convolution modules" : ""));
    if (d) {
      std::string width = "hidden size " + number_text(*d);
      std::optional<long long> layers;
      if (head) layers = layer_count(linears, *head, *d);
      if (layers) width += ", " + number_text(*layers) + " layers";
      if (decoder) {
        if (const auto heads = attention_heads(e)) {
          // The shapes are one GPU's shard under tensor parallelism.
          width += ", " + number_text(heads->q) + " attention heads on this GPU (" +
                   number_text(heads->kv) + " KV, head dim " + number_text(heads->dim) + ")";
        }
      }
      if (head) width += ", vocabulary " + number_text(head->n);
      // With the LM head and the layer count, the parameters are counted from the GEMM
      // weights of one step: every linear layer plus the LM head, then the embedding table
      // (as large as the LM head) when the two are not tied.
      std::optional<std::pair<double, double>> counted;
      if (layers && !moe) {
        double params = 0;
        for (const auto& l : linears) {
          params += static_cast<double>(l.n) * static_cast<double>(l.k) * l.count / head->count;
        }
        counted = {params, params + static_cast<double>(head->n) * static_cast<double>(head->k)};
      }
      if (moe) {
        info.scale = width + " (total size of an MoE model is not inferable from its width)";
      } else if (decoder && counted) {
        info.scale =
            "~" + billions(counted->first) + "-" + billions(counted->second) + "B (" + width + ")";
      } else if (decoder) {
        info.scale = decoder_scale(*d) + " (" + width + ")";
      } else if (!diffusion) {
        info.scale = encoder_scale(*d) + " (" + width + ")";
      }
      // A diffusion pipeline's linear layers belong to several models (text encoders,
      // denoiser, VAE): no single width names its size.
      if (!diffusion) {
        info.evidence.push_back("scale: hidden size " + number_text(*d) +
                                (head ? " = the input of the LM head (" + number_text(head->k) +
                                            " -> " + number_text(head->n) + ", the vocabulary)"
                                      : " = the most frequent linear-layer weight dimension"));
      }
      if (counted) {
        info.evidence.push_back("scale: " + billions(counted->first) +
                                "B parameters in the linear layers of one step (" +
                                number_text(*layers) +
                                " runs per LM-head run), plus an embedding of the LM head's size "
                                "unless the two are tied");
      }
    }
  } else if (conv_rows >= 3 || (has_conv_module && conv_rows >= 1)) {
    const bool basic = any_module(e, "BasicBlock");
    const bool bottleneck = any_module(e, "Bottleneck");
    info.architecture = (basic || bottleneck) ? "CNN (residual)" : "CNN";
    info.evidence.push_back("architecture: " + std::to_string(conv_rows) +
                            " convolution operator shapes, no attention");
    if (const auto channels = max_conv_channels(e)) {
      if (root && root->prefix == "ResNet" && basic) {
        info.scale =
            "ResNet-18/34 class (BasicBlock, up to " + number_text(*channels) + " channels)";
      } else if (root && root->prefix == "ResNet" && bottleneck) {
        info.scale =
            "ResNet-50 or deeper (Bottleneck, up to " + number_text(*channels) + " channels)";
      } else {
        info.scale = "up to " + number_text(*channels) + " convolution channels";
      }
      info.evidence.push_back("scale: widest convolution has " + number_text(*channels) +
                              " output channels");
    }
  }
  return info;
}

Json model_info_json(const ModelInfo& info) {
  Json j = Json::object();
  j["model"] = info.model;
  j["architecture"] = info.architecture;
  j["scale"] = info.scale;
  j["precision"] = info.precision;
  return j;
}

}  // namespace loupe::core
