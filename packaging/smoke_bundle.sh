#!/usr/bin/env bash
# Smoke test of the PyInstaller bundle (issue 17), called by .ci/run after `pyinstaller packaging/desktop.spec`:
#   packaging/smoke_bundle.sh [BUNDLE_DIR] [PYTHON]
# BUNDLE_DIR defaults to dist/TransporteAplicativo; PYTHON (for the checks of the PDFs: pypdf, zxing-cpp) to python3.
# The executable runs offscreen from an empty folder with a clean environment (no PYTHONPATH, no source tree, no
# system fonts: DESKTOP_NO_SYSTEM_FONTS), so a module or resource missing from the bundle fails here, not in an
# office. It: checks the installation (fonts, icons, migrations, Qt plugins, printing), creates a database, loads a
# small demo, starts the program and reaches the login window and then the main window (the start-up probe of
# desktop.app), runs `audit verify` (and signs a checkpoint), makes a backup, exports .xlsx and .csv, imports a
# trip file with routes (pyarrow's CSV reader and kernels; the passenger column reported as dropped), prints a
# sticker batch (QR codes in worker processes) and a guide and checks in the PDFs that the fonts are
# the bundle's DejaVu, the brasão is embedded, the QR code and the FEBRABAN barcode read back; then reports the
# bundle's size (fails above MAX_MB) and what takes the space.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUNDLE="$(cd "${1:-$ROOT/dist/TransporteAplicativo}" && pwd)"
PYTHON="${2:-python3}"
# absolute: the script works from a temporary folder (a relative venv path from .ci/run would no longer resolve)
case "$PYTHON" in */*) PYTHON="$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON")" ;; *) PYTHON="$(command -v "$PYTHON")" ;; esac
# Issue 17 asked for 250 MB. The spec's trimming (pyarrow without Parquet/Dataset/Acero/Substrait/Flight, ICU data
# for pt/en/root only, matplotlib's DejaVu Sans only, no unused Qt bindings or image plugins, Faker's pt_BR/en_US
# locales only, no SQLAlchemy dialects but SQLite's and PostgreSQL's) and, on Linux, the distribution's own
# libraries left to the system (desktop.spec's LINUX_SYSTEM_LIBS, 20 MB: the Windows bundle never had them) took
# the Linux bundle from 342 to 262 MB; what is left is loaded by the program: pyarrow 58 MB (libarrow 37 +
# libarrow_compute 14, the 1,000,000-trip reader of issue 15), PySide6/Qt 62, numpy with its OpenBLAS 40, the module
# archive in the executable 22, pandas 18, cryptography 11, psycopg's libpq with its OpenSSL 9. 250 MB would take a
# pyarrow-free trip reader (open on issue 17); the limit guards against growth from here.
MAX_MB="${MAX_MB:-265}"
EXE="$BUNDLE/TransporteAplicativo"
[ -x "$EXE" ] || { echo "smoke: executável não encontrado: $EXE" >&2; exit 1; }

WORK="$(mktemp -d -t smoke-bundle-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
started=$(date +%s)

say() { printf '\nsmoke: %s\n' "$*"; }
fail() { printf 'smoke: FALHOU: %s\n' "$*" >&2; exit 1; }

# The bundle alone: nothing of the checkout, nothing of the developer's settings or keys.
run() {
    env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
        DESKTOP_SETTINGS_FILE="$WORK/settings.json" DESKTOP_KEY_DIR="$WORK/keys" DESKTOP_KEY_STORE=file \
        DESKTOP_NO_SYSTEM_FONTS=1 DESKTOP_DEBUG= "$@"
}
mkdir -p "$WORK/home"
DB="sqlite:///$WORK/transporte.sqlite3"

say "versão do pacote: $(cat "$BUNDLE/_internal/VERSION")"
say "check-install (arquivos e plugins do Qt dentro do pacote)"
run "$EXE" check-install || fail "check-install"
[ -s "$BUNDLE/_internal/resources/manual/manual.pdf" ] && [ -s "$BUNDLE/_internal/resources/manual/capitulos.json" ] \
    || fail "o manual (resources/manual) não está no pacote: Ajuda → Manual (F1) não o encontraria"

say "banco novo + demonstração pequena"
run "$EXE" --db "$DB" migrate || fail "migrate"
run "$EXE" --db "$DB" demo --drivers 40 --seed 7 || fail "demo"
# the spec keeps only Faker's pt_BR/en_US modules: the demo's people must still carry Faker's Brazilian names (the
# streets are desktop.demo.values' own)
"$PYTHON" - "$WORK/transporte.sqlite3" <<'EOF' || fail "demo: nomes fora do Faker pt_BR"
import sqlite3, sys
from faker.providers.person.pt_BR import Provider
rows = sqlite3.connect(sys.argv[1]).execute("select name, address from drivers order by id").fetchall()
first, last = set(Provider.first_names_male + Provider.first_names_female), set(Provider.last_names)
# (Faker's names may hold spaces: "Pedro Miguel", "da Mota")
odd = [name for name, _ in rows if not any(name.startswith(f + " ") for f in first)
       or not any(name.endswith(" " + l) for l in last)]
assert len(rows) == 40 and not odd, f"nomes fora do Faker pt_BR: {odd[:5]}"
print(f"  {len(rows)} condutores com nomes do Faker pt_BR (ex.: {rows[0][0]}; endereço {rows[0][1]})")
EOF
# the demo's admin must change its provisional password at the first log in: the probe logs in as a user of its own
run "$EXE" --db "$DB" users add --username sonda.admin --name "Sonda do pacote" --roles administrador,gestor \
    --office "Gestor(a) de teste do pacote" --registration "PKG-0001" --password sonda-2025-pacote || fail "users add"
# acts are issued by a named user who types the password (issue 28): `signed CMD…` feeds it on standard input, in a
# session of its own (setsid: no terminal to ask on, so the password prompt reads the pipe as it does in CI)
signed() { printf 'sonda-2025-pacote\n' | run setsid -w "$@" --user sonda.admin; }

say "sonda de início: janela de login e janela principal (offscreen)"
probe="$WORK/probe.jsonl"
rc=0
run env DESKTOP_STARTUP_PROBE=1 DESKTOP_PROBE_USER=sonda.admin DESKTOP_PROBE_PASSWORD=sonda-2025-pacote \
    timeout 120 "$EXE" --db "$DB" > "$probe" || rc=$?
[ "$rc" -eq 0 ] || { cat "$probe"; fail "o programa não chegou à janela principal (código $rc; 124 = 120 s)"; }
for event in login_shown database_open login_accepted main_shown; do
    grep -q "\"event\": \"$event\"" "$probe" || { cat "$probe"; fail "a sonda não registrou $event"; }
done
"$PYTHON" - "$probe" <<'EOF'
import json, sys
events = {e["event"]: e["time"] for e in map(json.loads, open(sys.argv[1]))}
print(f"  login em {events['login_shown'] - events['run_gui']:.2f} s, janela principal em "
      f"{events['main_shown'] - events['run_gui']:.2f} s (desde run_gui)")
EOF

say "audit verify, um ponto de verificação assinado (chave no arquivo da estação) e verify de novo"
run "$EXE" --db "$DB" audit verify || fail "audit verify"
signed "$EXE" --db "$DB" audit checkpoint --out "$WORK/termo.pdf" || fail "audit checkpoint"
run "$EXE" --db "$DB" audit verify --against "$WORK/termo.pdf" || fail "audit verify --against"

say "cópia de segurança (o atalho do menu Iniciar) e exportações (.xlsx, .csv)"
run "$EXE" --db "$DB" backup --out "$WORK/copia.sqlite3" || fail "backup"
run "$EXE" --db "sqlite:///$WORK/copia.sqlite3" audit verify || fail "audit verify da cópia"
run "$EXE" --db "$DB" export authorizations --out "$WORK/autorizacoes.xlsx" || fail "export .xlsx"
run "$EXE" --db "$DB" export drivers --out "$WORK/condutores.csv" || fail "export .csv"

say "importação de viagens (issue 15): CSV com os cabeçalhos fixados, uma coluna de passageiro e rotas"
# Through the bundled program, so that a part of pyarrow the spec left out (CSV reader, compute kernels, pandas'
# string[pyarrow] of the route reader) fails here: check-install reads one CSV line, this the whole path.
read -r cnpj plate cpf < <("$PYTHON" -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select cnpj from platforms order by id limit 1').fetchone()[0], c.execute('select plate from vehicles order by id limit 1').fetchone()[0], c.execute('select cpf from drivers order by id limit 1').fetchone()[0])" "$WORK/transporte.sqlite3")
day=$(date -u -d yesterday +%d/%m/%Y)
passenger="Zuleica Passageira Quixabeira"
{
    echo "Nome do passageiro;ID da viagem;Placa;CPF do condutor;Início;Fim;Origem lat;Origem lon;Destino lat;Destino lon;Distância (m);Duração (s);Valor total (R\$);Tarifa base (R\$);Valor por distância (R\$);Valor por tempo (R\$);Taxa da plataforma (R\$);Outros (R\$);Avaliação;Tipo de chamada"
    echo "$passenger;PACOTE-1;$plate;$cpf;$day 08:00:00;$day 08:20:00;-15,4600;-55,7500;-15,4300;-55,7100;5300;1200;25,50;5,00;12,00;6,00;2,50;0;4,8;aplicativo"
    echo "$passenger;PACOTE-2;$plate;$cpf;$day 09:00:00;$day 09:12:00;-15,4500;-55,7400;-15,4600;-55,7500;3100;720;14,90;5,00;6,40;3,50;1,50;0;5;via pública"
} > "$WORK/viagens.csv"
printf 'ID da viagem;Momento;Lat;Lon\nPACOTE-1;%s 08:00:00;-15,46;-55,75\nPACOTE-1;%s 08:10:00;-15,45;-55,73\n' \
    "$day" "$day" > "$WORK/rotas.csv"
run "$EXE" --db "$DB" import trips --platform "$cnpj" "$WORK/viagens.csv" --routes "$WORK/rotas.csv" \
    > "$WORK/viagens.txt" 2>&1 || { cat "$WORK/viagens.txt"; fail "import trips"; }
sed 's/^/  /' "$WORK/viagens.txt"
grep -q "Viagens importadas: 2 " "$WORK/viagens.txt" || fail "import trips: as 2 viagens não foram importadas"
grep -q "Pontos de rota: 2" "$WORK/viagens.txt" || fail "import trips: os 2 pontos de rota não foram lidos"
grep -q "passageiros (Art. 4º): Nome do passageiro" "$WORK/viagens.txt" \
    || fail "import trips: a coluna do passageiro não foi dada como descartada"
if grep -q "$passenger" "$WORK/viagens.txt"; then fail "import trips: o nome do passageiro apareceu na saída"; fi
stored=$("$PYTHON" -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from trip_rows where external_id like 'PACOTE-%'\").fetchone()[0])" "$WORK/transporte.sqlite3")
[ "$stored" = 2 ] || fail "import trips: $stored viagens gravadas, esperadas 2"
if cat "$WORK"/transporte.sqlite3* | grep -aq "$passenger"; then fail "import trips: o passageiro foi gravado no banco"; fi

say "importação de um arquivo grande de viagens: o processo de leitura (desktop.importers.trip_worker) no pacote"
# From 16 MB a trip CSV is read and checked by a spawned process (the bundle's executable again, handed over by
# freeze_support in packaging/launcher.py) while the program writes: a module it needs missing from the bundle,
# or a launcher that does not hand over, fails here.
"$PYTHON" - "$WORK/viagens.csv" "$WORK/muitas.csv" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
header, row = lines[0], lines[1].split(";")
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write(header + "\n")
    for i in range(110_000):
        row[1] = f"GRANDE-{i:06d}"
        out.write(";".join(row) + "\n")
PY
big_mb=$(( $(stat -c %s "$WORK/muitas.csv") / 1048576 ))
[ "$big_mb" -ge 16 ] || fail "o arquivo grande de viagens tem só $big_mb MB (o processo de leitura começa em 16 MB)"
started_big=$(date +%s)
run "$EXE" --db "$DB" import trips --platform "$cnpj" "$WORK/muitas.csv" > "$WORK/muitas.txt" 2>&1 \
    || { cat "$WORK/muitas.txt"; fail "import trips (arquivo grande)"; }
grep -q "Viagens importadas: 110000 " "$WORK/muitas.txt" \
    || { cat "$WORK/muitas.txt"; fail "import trips: as 110.000 viagens não foram importadas"; }
stored=$("$PYTHON" -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from trip_rows where external_id like 'GRANDE-%'\").fetchone()[0])" "$WORK/transporte.sqlite3")
[ "$stored" = 110000 ] || fail "import trips (arquivo grande): $stored viagens gravadas, esperadas 110000"
echo "  110.000 viagens ($big_mb MB) importadas em $(( $(date +%s) - started_big )) s com o processo de leitura"

say "impressão: adesivos pendentes (2 processos para os QR) e uma guia"
signed "$EXE" --db "$DB" print sticker --all-pending --workers 2 --out "$WORK/adesivos.pdf" || fail "print sticker"
# an open guide not yet due: an overdue one is refused in every path (issue 28: "VENCIDA — reemita")
guide=$("$PYTHON" -c "import sqlite3,sys,datetime; r=sqlite3.connect(sys.argv[1]).execute(\"select number from payment_guides where status='open' and due_on >= ? order by id limit 1\", (datetime.date.today().isoformat(),)).fetchone(); print(r[0] if r else '')" "$WORK/transporte.sqlite3")
[ -n "$guide" ] || fail "a demonstração não tem guia em aberto ainda no prazo"
signed "$EXE" --db "$DB" print guide --id "$guide" --out "$WORK/guia.pdf" || fail "print guide $guide"

for pdf in adesivos guia; do
    fonts=$(pdffonts "$WORK/$pdf.pdf")
    echo "$fonts" | grep -q "DejaVuSans " || { echo "$fonts"; fail "$pdf.pdf sem a fonte DejaVuSans embutida"; }
    echo "$fonts" | grep -q "DejaVuSans-Bold" || { echo "$fonts"; fail "$pdf.pdf sem DejaVuSans-Bold"; }
    # (ReportLab lists its initial Helvetica, never used, in every PDF; without DejaVu the text would be
    # Helvetica-Bold too, and the DejaVu lines above would be missing: DESKTOP_NO_SYSTEM_FONTS is set)
    if echo "$fonts" | grep -q "Helvetica-Bold"; then echo "$fonts"; fail "$pdf.pdf caiu na Helvetica (fonte fora do pacote)"; fi
    # the demo brasão is 240 × 280 px (resources/brasao/brasao-demo.png); poppler's complaints about ReportLab's
    # form resources go to /dev/null
    brasoes=$(pdfimages -list "$WORK/$pdf.pdf" 2>/dev/null | awk 'NR > 2 && $4 == 240 && $5 == 280' | wc -l)
    [ "$brasoes" -ge 1 ] || { pdfimages -list "$WORK/$pdf.pdf" 2>/dev/null; fail "$pdf.pdf sem o brasão"; }
    echo "  $pdf.pdf: DejaVuSans embutida, brasão 240 × 280 em $brasoes lugar(es)"
done
pdftoppm -r 300 -gray -f 1 -l 1 -png "$WORK/adesivos.pdf" "$WORK/adesivo"
pdftoppm -r 300 -gray -f 1 -l 1 -png "$WORK/guia.pdf" "$WORK/guia"
"$PYTHON" - "$WORK" "$guide" <<'EOF'
import glob, sys
import zxingcpp
from PIL import Image
work, guide = sys.argv[1], sys.argv[2]
def codes(prefix):
    image = Image.open(sorted(glob.glob(f"{work}/{prefix}*.png"))[0])
    return [(r.format.name, r.text) for r in zxingcpp.read_barcodes(image)]
sticker = codes("adesivo")
qr = [text for kind, text in sticker if kind == "QRCode"]
assert qr, f"QR do adesivo não lido: {sticker}"
print(f"  adesivo: QR lido ({len(qr[0])} caracteres: {qr[0][:40]}…)")
dam = codes("guia")
itf = [text for kind, text in dam if kind == "ITF"]
assert itf and len(itf[0]) == 44 and itf[0].startswith("8"), f"código de barras FEBRABAN da guia não lido: {dam}"
print(f"  guia {guide}: código de barras FEBRABAN lido ({itf[0]})")
EOF

elapsed=$(( $(date +%s) - started ))
say "tamanho do pacote"
total_kb=$(du -sk "$BUNDLE" | cut -f1)
total_mb=$(( (total_kb + 1023) / 1024 ))
echo "  $BUNDLE: ${total_mb} MB (limite ${MAX_MB} MB); o que ocupa mais (15 pastas):"
du -k --max-depth=3 "$BUNDLE" | sort -rn | sed -n '2,16p' | awk -v base="$BUNDLE/" '{sub(base, "", $2); printf "  %7.1f MB  %s\n", $1/1024, $2}'
echo "  maiores arquivos:"
# (into a file first: `head` closing the pipe would make `sort` die of SIGPIPE, and pipefail end the script)
find "$BUNDLE" -type f -printf '%s %P\n' | sort -rn > "$WORK/sizes.txt"
head -8 "$WORK/sizes.txt" | awk '{printf "  %7.1f MB  %s\n", $1/1048576, $2}'
[ "$total_mb" -lt "$MAX_MB" ] || fail "o pacote tem ${total_mb} MB, acima de ${MAX_MB} MB"
say "links sem destino"
dangling=$(find "$BUNDLE" -xtype l -printf '%P -> %l\n')
[ -z "$dangling" ] || fail "links sem destino no pacote (cada um sai com a sua biblioteca): $dangling"
say "pacote em ordem (${elapsed} s de testes)"
