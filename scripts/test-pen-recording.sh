#!/usr/bin/env bash
# test-pen-recording.sh [--name NAME] [--squeeze]
#
# Prints an evemu recording, for tests that need no outside data: an Intuos4-like pen
# (pen and eraser tools, two barrel buttons, pressure, distance) that comes into range,
# double-clicks its first barrel button, draws a short stroke and leaves; with --squeeze
# it holds its second barrel button (a squeeze) while moving, before it leaves.
set -euo pipefail

name="Client Test Pen"
squeeze=""
while [ "$#" -gt 0 ]; do
    case $1 in
        --name) name=${2:?--name needs a value}; shift 2 ;;
        --squeeze) squeeze=yes; shift ;;
        *) echo "usage: $0 [--name NAME] [--squeeze]" >&2; exit 64 ;;
    esac
done

echo "N: $name"
echo "I: 0003 056a 00b9 0100"
echo "P: 00 00 00 00 00 00 00 00"
echo "B: 00 0b 00 00 00 00 00 00 00"
for _ in 1 2 3 4 5; do echo "B: 01 00 00 00 00 00 00 00 00"; done
echo "B: 01 03 1c 00 00 00 00 00 00"
echo "B: 03 03 00 00 03 00 00 00 00"
echo "A: 00 0 44704 4 0 200"
echo "A: 01 0 27940 4 0 200"
echo "A: 18 0 2047 0 0 0"
echo "A: 19 0 63 0 0 0"
t=0
frame() { printf 'E: %d.%06d 0000 0000 0000\n' $((t / 1000000)) $((t % 1000000)); t=$((t + 8000)); }
ev() { printf 'E: %d.%06d %s\n' $((t / 1000000)) $((t % 1000000)) "$1"; }
ev "0001 0140 1"; ev "0003 0000 22000"; ev "0003 0001 14000"; ev "0003 0019 30"; frame
for _ in 1 2; do
    ev "0001 014b 1"; frame
    t=$((t + 60000)); ev "0001 014b 0"; frame
    t=$((t + 60000))
done
ev "0003 0018 900"; ev "0001 014a 1"; ev "0003 0019 0"; frame
for step in 1 2 3 4 5 6; do ev "0003 0000 $((22000 + step * 300))"; frame; done
ev "0003 0018 0"; ev "0001 014a 0"; ev "0003 0019 20"; frame
if [ -n "$squeeze" ]; then
    ev "0001 014c 1"; frame
    for step in 1 2 3; do ev "0003 0001 $((14000 + step * 40))"; frame; done
    ev "0001 014c 0"; frame
fi
ev "0001 0140 0"; frame
