/* test-fetch.c - sha256 (FIPS 180-4 vectors), manifest selection on real
 * NVIDIA manifests, symlink target checks, lock round trip. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "fetch/fetch.h"
#include "tap.h"
#include "util/json.h"
#include "util/sha256.h"

static const char *hash(const void *p, size_t n, char hex[65])
{
	struct ptb_sha256 s;

	ptb_sha256_init(&s);
	ptb_sha256_update(&s, p, n);
	ptb_sha256_final_hex(&s, hex);
	return hex;
}

static void test_sha256(void)
{
	static const struct { const char *in, *want; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char hex[65];
	struct ptb_sha256 s;
	char *a = malloc(1000000);

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		is_str(hash(v[i].in, strlen(v[i].in), hex), v[i].want, "sha256 FIPS vector %zu", i + 1);
	memset(a, 'a', 1000000);
	is_str(hash(a, 1000000, hex), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	       "sha256 of a million 'a'");
	/* Streamed in odd pieces, as a download arrives. */
	ptb_sha256_init(&s);
	for (size_t off = 0, step = 1; off < 1000000; off += step, step = step * 7 % 1031 + 1)
		ptb_sha256_update(&s, a + off, off + step > 1000000 ? 1000000 - off : step);
	ptb_sha256_final_hex(&s, hex);
	is_str(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	       "sha256 streamed in uneven pieces");
	/* Every padding boundary length against one-shot. */
	{
		int same = 1;
		for (size_t n = 50; n < 140; n++) {
			char h1[65], h2[65];
			ptb_sha256_init(&s);
			ptb_sha256_update(&s, a, n / 2);
			ptb_sha256_update(&s, a + n / 2, n - n / 2);
			ptb_sha256_final_hex(&s, h1);
			hash(a, n, h2);
			same &= strcmp(h1, h2) == 0;
		}
		ok(same, "split updates agree around the 56/64-byte padding boundary");
	}
	/* The portable code, whichever one is in use, on the same vectors. */
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		ptb_sha256_portable_hex(v[i].in, strlen(v[i].in), hex);
		is_str(hex, v[i].want, "portable sha256 FIPS vector %zu", i + 1);
	}
	{
		int same = 1;
		char h2[65];
		for (size_t n = 0; n < 300; n++) {
			for (size_t k = 0; k < n; k++)
				a[k] = (char)(k * 131 + n);
			ptb_sha256_portable_hex(a, n, h2);
			same &= strcmp(hash(a, n, hex), h2) == 0;
		}
		ok(same, "the %s sha256 and the portable one agree on lengths 0..299", ptb_sha256_impl());
	}
	free(a);
}

static cJSON *load(const char *name)
{
	char *p = ptb_xasprintf("%s/tests/fetch/%s", getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	struct ptb_buf b;
	struct ptb_err err = { 0 };
	cJSON *j;

	ptb_buf_init(&b);
	if (ptb_file_read(p, 0, &b, &err) != 0) {
		printf("# %s\n", err.msg);
		free(p);
		return NULL;
	}
	j = ptb_json_parse(b.data, b.len, p, &err);
	ptb_buf_free(&b);
	free(p);
	return j;
}

static int sel(const cJSON *m, const char *plat, const char *comps, const char *variant,
               const char *cuda, struct ptb_fetch_list *l, struct ptb_err *err)
{
	struct ptb_manifest_sel s = { .platform = plat, .variant = variant, .cuda = cuda };
	const char *v[16];
	char *c = comps ? ptb_xstrdup(comps) : NULL, *save = NULL, *t;
	int rc;

	memset(l, 0, sizeof *l);
	memset(err, 0, sizeof *err);
	if (c) {
		for (t = strtok_r(c, ",", &save); t; t = strtok_r(NULL, ",", &save))
			v[s.ncomponents++] = t;
		s.components = v;
	}
	rc = ptb_manifest_select(m, "m.json", "https://x/redist/", &s, l, err);
	free(c);
	return rc;
}

/* A selection from a manifest (12: 12.4.1, 13: 13.4.2, 9: cuDNN 9.13.0)
 * and what it must give: rc 0 with n items (the first one's name, URL
 * part, kind when given), or -1 with that code and those words. */
struct sel_case {
	int m;
	const char *plat, *comps, *variant, *cuda;
	int rc;
	size_t n;
	int code;
	const char *has[3];
	const char *name, *url_has;
	int file;
	const char *what;
};

static const struct sel_case sels[] = {
	{ 12, "linux-sbsa", NULL, NULL, NULL, 0, 32, 0, { NULL }, NULL, NULL, 0,
	  "12.4.1 linux-sbsa: every component with that platform (32)" },
	{ 13, "linux-x86_64", "cuda_cccl", NULL, NULL, 0, 1, 0, { NULL }, "cccl", NULL, 0,
	  "13.4.2: cuda_cccl finds the renamed cccl" },
	{ 12, "linux-x86_64", "cccl", NULL, NULL, 0, 1, 0, { NULL }, "cuda_cccl", NULL, 0,
	  "12.4.1: cccl finds cuda_cccl" },
	{ 12, "linux-x86_64", "cuda_cccl,cccl,cuda_cccl", NULL, NULL, 0, 1, 0, { NULL }, NULL, NULL, 0,
	  "a component named twice (or by both names) is fetched once" },
	{ 9, "linux-x86_64", "cudnn", NULL, NULL, -1, 0, PTB_EUSAGE, { "cuda12, cuda13" }, NULL, NULL, 0,
	  "cuDNN without a variant: refused, naming the variants" },
	{ 9, "linux-sbsa", "cudnn", "13", NULL, 0, 1, 0, { NULL }, NULL,
	  "cudnn-linux-sbsa-9.13.0.50_cuda13-archive.tar.xz", 0, "--variant 13 picks cuda13" },
	{ 9, "linux-x86_64", "cudnn", NULL, "12.8.1", 0, 1, 0, { NULL }, NULL, "_cuda12-archive", 0,
	  "--cuda 12.8.1 picks cuda12" },
	{ 9, "linux-x86_64", "cudnn_samples", NULL, NULL, 0, 1, 0, { NULL }, NULL, NULL, 1,
	  "a source-only component named explicitly comes as a file" },
	{ 12, "linux-x86_64", "no_such", NULL, NULL, -1, 0, 0, { "no component 'no_such'" }, NULL, NULL, 0,
	  "an unknown component is named" },
};

static void test_manifest(void)
{
	cJSON *m12 = load("redistrib_12.4.1.json"), *m13 = load("redistrib_13.4.2.json");
	cJSON *dnn = load("redistrib_9.13.0.json"), *bad = load("manifest-bad.json");
	struct ptb_fetch_list l;
	struct ptb_err err;

	ok(m12 && m13 && dnn && bad, "fixture manifests parse");
	ok(sel(m12, "linux-x86_64", "cuda_nvcc,cuda_cudart", NULL, NULL, &l, &err) == 0, "12.4.1: select nvcc and cudart");
	ok(l.n == 2, "two items");
	if (l.n == 2) {
		is_str(l.items[0].url, "https://x/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz", "URL is base + relative_path");
		ok(l.items[0].size == 51184484, "size read from a decimal string");
		is_str(l.items[0].sha256, "7ffba1ada0e4b8c17e451ac7a60d386aa2642ecd08d71202a0b100c98bd74681", "sha256 kept");
		is_str(l.items[0].version, "12.4.131", "component version kept");
	}
	ptb_fetch_list_free(&l);
	for (size_t i = 0; i < sizeof sels / sizeof sels[0]; i++) {
		const struct sel_case *c = &sels[i];
		const cJSON *m = c->m == 13 ? m13 : c->m == 9 ? dnn : m12;
		int good = sel(m, c->plat, c->comps, c->variant, c->cuda, &l, &err) == c->rc;

		if (c->rc == 0) {
			good = good && l.n == c->n;
			good = good && (!c->name || strcmp(l.items[0].name, c->name) == 0);
			good = good && (!c->url_has || strstr(l.items[0].url, c->url_has));
			good = good && (!c->file || l.items[0].kind == PTB_ITEM_FILE);
		} else {
			good = good && (!c->code || err.code == c->code);
			for (int k = 0; k < 3 && c->has[k]; k++)
				good = good && strstr(err.msg, c->has[k]);
		}
		ok(good, "%s", c->what);
		ptb_fetch_list_free(&l);
	}
	ok(sel(m12, "linux-aarch64", "nsight_compute", NULL, NULL, &l, &err) == -1 ||
	   l.n == 1, "a component without the platform is refused or found");
	ptb_fetch_list_free(&l);
	ok(sel(bad, "linux-x86_64", "cuda_nvcc", NULL, NULL, &l, &err) == -1 && err.code == PTB_EUSAGE &&
	   strstr(err.msg, "'m.json'") && strstr(err.msg, "'cuda_nvcc'") && strstr(err.msg, "'size'"),
	   "a malformed size names the file, the component and the key");
	printf("# %s\n", err.msg);
	ptb_fetch_list_free(&l);
	cJSON_Delete(m12);
	cJSON_Delete(m13);
	cJSON_Delete(dnn);
	cJSON_Delete(bad);
}

static void test_links(void)
{
	static const struct {
		const char *name, *target;
		int ok;
		const char *what;
	} v[] = {
		{ "lib/libcudart.so", "libcudart.so.12", 1, "sibling link ok" },
		{ "lib/x", "../include/x.h", 1, "one level up from lib/ ok" },
		{ "x", "../y", 0, "up from the root refused" },
		{ "lib/x", "../../y", 0, "two levels up from lib/ refused" },
		{ "lib/x", "/etc/passwd", 0, "absolute target refused" },
		{ "a/b/c", "d/../../../../e", 0, "'..' after a name refused" },
		{ "a/./b/c", "./../x", 1, "'.' elements ignored" },
		{ "a", "", 0, "empty target refused" },
		/* The depth is the name's real depth, however it is spelled. */
		{ "lib/x/", "../../y", 0, "a trailing '/' is no deeper level" },
		{ "lib//x/.", "../../y", 0, "nor '//' and a trailing '/.'" },
		{ "lib//x/.", "../y", 1, "... which still sit one level down" },
		{ "a/../b/c", "../y", 0, "a link named with '..' refused" },
	};

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		ok(!ptb_extract_link_ok(v[i].name, v[i].target) == !v[i].ok, "%s", v[i].what);
}

static void test_names(void)
{
	static const char *const good[] = { "cuda_nvcc", "libcublas", "OpenBLAS-0.3.28.tar.gz", "..x", "a.." };
	static const char *const bad[] = { "", ".", "..", "a/b", "../../x", "/x", "x/", "a\nb", "a\x1b[2Jb" };
	const char *why;

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ok(ptb_fetch_name_ok(good[i], &why), "name '%s' taken", good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ok(!ptb_fetch_name_ok(bad[i], &why) && why, "name #%zu refused (%s)", i, why ? why : "-");
	ok(!ptb_fetch_name_ok(NULL, &why), "no name refused");
}

static void test_norm(void)
{
	static const char *const cases[][2] = {
		{ "top/lib/x", "top/lib/x" }, { "top/lib/x/", "top/lib/x" },
		{ "top/lib/x/.", "top/lib/x" }, { "./top//lib/./x//", "top/lib/x" },
		{ "./", "" }, { ".", "" }, { "top/..x/y..", "top/..x/y.." },
	};
	static const char *const refused[] = { "", "/etc/x", "top/../x", "top/..", "..", "a/b/../../.." };
	const char *why;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *n = ptb_extract_norm(cases[i][0], &why);
		ok(n && strcmp(n, cases[i][1]) == 0, "'%s' is '%s'", cases[i][0], cases[i][1]);
		free(n);
	}
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char *n = ptb_extract_norm(refused[i], &why);
		ok(!n && why && *why, "'%s' refused (%s)", refused[i], n ? "accepted" : why);
		free(n);
	}
}

static void test_lock(void)
{
	struct ptb_fetch_list l = { 0 }, r = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_fetch_item *it = ptb_fetch_list_add(&l);
	const char *dir = getenv("TEST_TMPDIR");
	char *p = ptb_xasprintf("%s/test-fetch.lock", dir ? dir : "/tmp");

	it->name = ptb_xstrdup("cuda_nvcc");
	it->url = ptb_xstrdup("https://x/a.tar.xz");
	memset(it->sha256, 'a', 64);
	it->size = 1234567890123;
	l.platform = ptb_xstrdup("linux-sbsa");
	ok(ptb_lock_write(p, &l, &err) == 0, "lock written");
	ok(ptb_lock_read(p, &r, &err) == 0 && r.n == 1 && r.items[0].size == 1234567890123 &&
	   strcmp(r.items[0].url, it->url) == 0 && strcmp(r.platform, "linux-sbsa") == 0, "lock read back the same");
	ptb_fetch_list_free(&l);
	ptb_fetch_list_free(&r);
	unlink(p);
	free(p);
}

/* --offline with nothing cached stops at the first item: the transfers it
 * never set up must not be closed (their descriptors are not 0, stdin). */
static void test_offline_stop(void)
{
	struct ptb_fetch_list l = { 0 };
	struct ptb_net_opts o;
	struct ptb_err err = { 0 };
	const char *dir = getenv("TEST_TMPDIR");
	char *cache = ptb_xasprintf("%s/test-fetch-cache.%ld", dir ? dir : "/tmp", (long)getpid());
	int p[2], saved = dup(0);

	for (int i = 0; i < 3; i++) {
		struct ptb_fetch_item *it = ptb_fetch_list_add(&l);

		it->name = ptb_xasprintf("comp%d", i);
		it->url = ptb_xasprintf("https://127.0.0.1:9/comp%d.tar.xz", i);
		memset(it->sha256, 'a' + i, 64);
		it->size = 10;
	}
	ptb_net_opts_default(&o);
	o.offline = 1;
	o.progress = 0;
	ok(pipe(p) == 0 && dup2(p[0], 0) == 0, "stdin is a pipe for the test");
	ok(ptb_fetch_all(&l, cache, &o, NULL, NULL, NULL, &err) == -1 &&
	   strstr(err.msg, "--offline: 'comp0'") != NULL, "--offline, nothing cached: refused at the first item");
	ok(fcntl(0, F_GETFD) != -1, "... and stdin is still open");
	dup2(saved, 0);
	close(saved);
	close(p[0]);
	close(p[1]);
	ptb_fetch_list_free(&l);
	free(cache);
}

int main(void)
{
	test_sha256();
	test_manifest();
	test_links();
	test_norm();
	test_names();
	test_lock();
	test_offline_stop();
	return tap_done();
}
