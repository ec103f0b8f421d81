#!/usr/bin/env python3
"""Writes pwtui(1), the man page, from the binary's own help: `make install` runs it.

The text comes from two places of the same help, so the page cannot drift from `pwtui --help`:
`pwtui --experimental-dump-help` (ArgumentParser's JSON: every command's abstract, discussion,
arguments and subcommands) and the group headings of `pwtui --help` ("USE SUBCOMMANDS:" and the
commands under it), which the JSON does not carry. swift-argument-parser's own generate-manual
tool is reachable only through a SwiftPM plugin that rebuilds the whole package, and knows no
groups; this is the small part of it pwtui needs.

Usage: generate-manual.py PATH-TO-PWTUI > pwtui.1
"""

import datetime
import json
import os
import re
import subprocess
import sys


def roff(text):
    """Text safe in roff: backslashes, hyphens of options, and a leading dot or quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def paragraphs(text):
    """A discussion as roff: indented lines are examples (kept as they are), the rest flows."""
    out = [".PP"]
    in_example = False
    for line in text.split("\n"):
        if line.startswith("  "):
            if not in_example:
                out += [".PP", ".RS 4", ".nf"]
                in_example = True
            out.append(roff(line[2:]))
            continue
        if in_example:
            out += [".fi", ".RE"]
            in_example = False
        out.append(".PP" if not line.strip() else roff(line))
    if in_example:
        out += [".fi", ".RE"]
    return out


def synopsis(path, command):
    words = ["pwtui"] + path
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True) or argument["kind"] != "positional":
            continue
        name = "<%s>" % argument.get("valueName", "value")
        if argument.get("isRepeating"):
            name += " ..."
        words.append("[%s]" % name if argument.get("isOptional") else name)
    return words


def option_label(argument):
    names = []
    for name in argument.get("names", []):
        dashes = "--" if name["kind"] == "long" else "-"
        names.append("\\fB%s\\fR" % roff(dashes + name["name"]))
    label = ", ".join(names)
    if argument["kind"] == "option":
        label += " \\fI<%s>\\fR" % roff(argument.get("valueName", "value"))
    elif argument["kind"] == "positional":
        label = "\\fI<%s>\\fR" % roff(argument.get("valueName", "value"))
    return label


def command_section(path, command):
    """One command: `.SS pwtui PATH`, its synopsis, abstract, discussion and options."""
    out = ['.SS "%s"' % roff(" ".join(["pwtui"] + path))]
    out += [".B %s" % roff(" ".join(synopsis(path, command))) + " [options]"]
    if command.get("abstract"):
        out += [".PP", roff(command["abstract"])]
    if command.get("discussion"):
        out += paragraphs(command["discussion"])
    for argument in command.get("arguments", []):
        names = [name["name"] for name in argument.get("names", [])]
        if not argument.get("shouldDisplay", True) or "help" in names or "version" in names:
            continue
        text = argument.get("abstract", "")
        if argument.get("defaultValue") not in (None, "", "false"):
            text += " (default: %s)" % argument["defaultValue"]
        out += [".TP", option_label(argument), roff(text)]
    return out


def subcommands(command):
    return [sub for sub in command.get("subcommands", []) if sub.get("shouldDisplay", True) and sub["commandName"] != "help"]


def every_command(path, command):
    """The command and its subcommands, depth first (`agent`, `agent start`, …)."""
    sections = command_section(path, command)
    for sub in subcommands(command):
        sections += every_command(path + [sub["commandName"]], sub)
    return sections


def groups(help_text):
    """[(group, [command, …])] from the headings of `pwtui --help`."""
    result = []
    for line in help_text.split("\n"):
        heading = re.match(r"^(.+) SUBCOMMANDS:$", line)
        if heading:
            result.append((heading.group(1).capitalize(), []))
        elif result and re.match(r"^  \S", line):
            result[-1][1].append(line.split()[0])
        elif result and line and not line.startswith(" "):
            break
    return result


def main():
    binary = sys.argv[1]
    root = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)["command"]
    help_text = subprocess.run([binary, "--help"], check=True, capture_output=True, text=True).stdout
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    by_name = {sub["commandName"]: sub for sub in subcommands(root)}
    # SOURCE_DATE_EPOCH: a reproducible page for packagers.
    date = datetime.datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or datetime.datetime.now().timestamp(),
                                           tz=datetime.timezone.utc).strftime("%Y-%m-%d")

    page = ['.TH PWTUI 1 "%s" "pwtui %s" "User Commands"' % (date, roff(version)),
            ".SH NAME", "pwtui \\- " + roff(root["abstract"]),
            ".SH SYNOPSIS",
            ".B pwtui", ".br", ".B pwtui", ".I command", "[options] [arguments]",
            ".SH DESCRIPTION"]
    page += paragraphs(root.get("discussion", ""))
    page += [".SH COMMANDS"]
    for group, names in groups(help_text):
        page += ['.SS "%s"' % roff(group)]
        for name in names:
            page += [".TP", "\\fB%s\\fR" % roff(name), roff(by_name[name].get("abstract", ""))]
    listed = {name for _, names in groups(help_text) for name in names}
    for group, names in groups(help_text):
        page += ['.SH "%s COMMANDS"' % roff(group.upper())]
        for name in names:
            page += every_command([name], by_name[name])
    # A command in no group still gets its section.
    others = [name for name in by_name if name not in listed]
    if others:
        page += ['.SH "OTHER COMMANDS"']
        for name in others:
            page += every_command([name], by_name[name])
    page += [".SH FILES",
             ".TP", "\\fI$XDG_DATA_HOME/pwtui/vault.pwtui\\fR", "The vault (or \\fB$PWTUI_VAULT\\fR, or \\fB\\-\\-vault\\fR).",
             ".TP", "\\fI$XDG_CONFIG_HOME/pwtui/config.toml\\fR", "The settings written by \\fBpwtui configure\\fR.",
             ".SH SEE ALSO", "\\fBgit-credential\\fR(1); README.md and docs/ in pwtui's sources."]
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
