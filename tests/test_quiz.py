"""helpers.quiz: concept checks and the feedback function behind their widget."""

import pytest

from helpers.quiz import (CHECKS, TRY_AGAIN, ConceptCheck, arranged, check_answer, checks_for, inline_html, reveal_answer,
                          validate_check)
from helpers.widgets import concept_check

TOY = ConceptCheck("2 + 2?", ("3", "4"), 1, ("Off by one.", "Arithmetic."))


def test_right_answer_says_why():
    result = check_answer(TOY, 1)
    assert result == {"answered": True, "correct": True, "feedback": "Right. Arithmetic."}


def test_wrong_answer_explains_itself_and_leaves_another_try():
    """A wrong choice is told why it is wrong, not what is right (review: "a wrong choice reveals the right
    answer at once, no second try")."""
    result = check_answer(TOY, 0)
    assert not result["correct"] and result["answered"]
    assert result["feedback"] == "Not quite. Off by one. Try another option, or open \u201cShow the answer\u201d."


def test_the_answer_is_revealed_only_on_request():
    assert reveal_answer(TOY) == "The answer is \u201c4\u201d: Arithmetic."
    assert reveal_answer("01.imbalance").startswith(f"The answer is \u201c{CHECKS['01.imbalance'].options[1]}\u201d")
    with pytest.raises(ValueError, match="unknown concept check 'nope'"):
        reveal_answer("nope")


def test_no_choice_yet():
    assert check_answer(TOY, None) == {"answered": False, "correct": False,
                                       "feedback": "Pick an option to see why it is right or wrong."}


@pytest.mark.parametrize("choice, message", [(2, "choice must be at most 1"), (-1, "choice must be at least 0"),
                                             ("1", "choice must be an integer"), (True, "choice must be an integer")])
def test_bad_choice(choice, message):
    with pytest.raises(ValueError, match=message):
        check_answer(TOY, choice)


@pytest.mark.parametrize("bad, message", [
    (ConceptCheck("q", ("a",), 0, ("x",)), "at least 2 options"),
    (ConceptCheck("q", ("a", "b"), 0, ("x",)), "every option needs its explanation"),
    (ConceptCheck("q", ("a", "b"), 2, ("x", "y")), "answer must be at most 1"),
    (ConceptCheck("q", ("a", "a"), 0, ("x", "y")), "two options have the same text"),
    (ConceptCheck(" ", ("a", "b"), 0, ("x", "y")), "the question is empty"),
])
def test_malformed_checks_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        validate_check(bad)


def test_unknown_key():
    with pytest.raises(ValueError, match="unknown concept check '99.x'"):
        check_answer("99.x", 0)


@pytest.mark.parametrize("key", sorted(CHECKS))
def test_every_course_check_is_well_formed(key):
    check = validate_check(CHECKS[key])
    assert check_answer(key, check.answer)["correct"]
    wrong = [i for i in range(len(check.options)) if i != check.answer]
    assert wrong and not any(check_answer(key, i)["correct"] for i in wrong)


@pytest.mark.parametrize("notebook", ["01", "02", "03", "04", "05", "06"])
def test_three_to_six_checks_per_notebook(notebook):
    assert 3 <= len(checks_for(notebook)) <= 6


def test_widget_writes_every_options_feedback_in_a_labelled_radio_group():
    """The browser shows the feedback of the checked radio (tests/test_browser_accessibility.py); here: the
    radio group holds one radio per option, all named alike, and every feedback is check_answer's, in order."""
    import html as html_module
    import re

    box = concept_check("02.column")
    check = CHECKS["02.column"]
    page = html_module.unescape(box.value)
    assert f'role="radiogroup" aria-labelledby="{box.uid}-question"' in box.value
    assert box.value.count(f'type="radio" name="{box.uid}"') == len(check.options)
    shown = re.findall(r'<p class="concept-feedback-(\w+) [^"]*">(.*?)</p>', box.value)
    assert [key for key, _ in shown] == ["none"] + [str(i) for i in range(len(check.options))]
    assert [text for _, text in shown] == [inline_html(box.feedback(None)["feedback"])] + [
        inline_html(check_answer("02.column", i)["feedback"]) for i in range(len(check.options))]
    wrong = next(i for i, option in enumerate(check.options) if i != check.answer and "1 - AUC" in check.why[i])
    assert "Not quite." in shown[wrong + 1][1] and "1 - AUC" in shown[wrong + 1][1]
    assert shown[check.answer + 1][1].startswith("Right.")
    assert all(f"> {inline_html(option)}</label>" in box.value for option in check.options)
    # "Show the answer" holds reveal_answer's text, and it is offered only while a wrong option is checked
    answer = re.search(r'<details class="concept-answer"><summary[^>]*>Show the answer</summary><p>(.*?)</p></details>',
                       box.value)
    assert answer and answer.group(1) == inline_html(reveal_answer("02.column"))
    offered = set(re.findall(rf"#{box.uid}:has\(#{box.uid}-(\d+):checked\) \.concept-answer", box.value))
    assert offered == {str(i) for i in range(len(check.options)) if i != check.answer}
    assert concept_check("02.column").uid != box.uid, "two checks on one page never share a radio group"
    with pytest.raises(ValueError, match="unknown concept check"):
        concept_check("nope")


def test_inline_markdown_becomes_html_and_raw_html_stays_text():
    assert inline_html("Why is `best_score_` <b>high</b> & *new*?") == (
        "Why is <code>best_score_</code> &lt;b&gt;high&lt;/b&gt; &amp; <em>new</em>?")
    assert inline_html("`<script>alert(1)</script>`") == "<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"
    assert inline_html("p_s - p_s + 1, n_startup_trials=10") == "p_s - p_s + 1, n_startup_trials=10"
    with pytest.raises(ValueError, match="text must be a str; got int"):
        inline_html(3)


def visible_text(markup: str) -> str:
    """What a reader sees of a check's HTML: its tags and style sheets dropped, its entities decoded."""
    import html as html_module
    import re

    return html_module.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", markup, flags=re.S)))


@pytest.mark.parametrize("key", sorted(CHECKS))
def test_every_check_shows_its_code_as_code_and_no_backtick(key):
    """Review item 10: "`best_score_`" showed with its backticks. The widget's HTML renders each code span as
    <code> and keeps every other character of the question, options and feedback as written."""
    import html as html_module

    check, box = CHECKS[key], concept_check(key)
    spans = [span for text in (check.question, *check.options, *check.why) for span in text.split("`")[1::2]]
    assert "`" not in visible_text(box.value)
    for span in spans:
        assert f"<code>{html_module.escape(span, quote=False)}</code>" in box.value
    assert check.question.replace("`", "") in visible_text(box.value)
    assert all(option.replace("`", "") in visible_text(box.value) for option in check.options)


def test_prior_shift_check_states_the_corrections_value():
    """The numbers in 04.prior-shift are Dal Pozzolo's correction of 0.5 with beta = 1/8."""
    from helpers.calibration import undersampling_correction

    check = CHECKS["04.prior-shift"]
    corrected = undersampling_correction([0.5], 1 / 8)[0]
    assert abs(corrected - 1 / 9) < 1e-12
    assert check.options[check.answer] == f"About {corrected:.2f}"
    assert f"{1 / 8 * 0.5}" in check.why[check.answer] and f"{1 / 8 * 0.5 - 0.5 + 1}" in check.why[check.answer]
    assert f"{1 / 8 * 0.5}" in check.options and "numerator alone" in check.why[check.options.index(f"{1 / 8 * 0.5}")]


def test_the_right_answer_is_not_always_in_the_same_place():
    """After two checks a student should not have learned to click the first option."""
    from collections import Counter

    positions = Counter(check.answer for check in CHECKS.values())
    assert len(positions) >= 3 and max(positions.values()) <= len(CHECKS) / 2, positions
    for notebook in ["01", "02", "03", "04", "05", "06"]:
        places = [CHECKS[key].answer for key in checks_for(notebook)]
        assert len(set(places)) >= 2, f"notebook {notebook}: the right answer always at {places[0]}"


def test_arranging_keeps_each_explanation_with_its_option():
    check = ConceptCheck("q?", ("a", "b", "c"), 0, ("why a", "why b", "why c"))
    for position in range(3):
        moved = arranged(check, position)
        assert moved.options[position] == "a" and moved.answer == position
        assert dict(zip(moved.options, moved.why)) == dict(zip(check.options, check.why))
        assert check_answer(moved, position)["feedback"] == "Right. why a"
    with pytest.raises(ValueError, match="position must be at most 2"):
        arranged(check, 3)


@pytest.mark.parametrize("key", sorted(CHECKS))
def test_each_checks_feedback_matches_its_options(key):
    """The explanation shown for an option is the one written for that option (the right one says Right.)."""
    check = CHECKS[key]
    for i, option in enumerate(check.options):
        feedback = check_answer(key, i)["feedback"]
        assert feedback.startswith("Right." if i == check.answer else "Not quite.") and check.why[i] in feedback
        if i != check.answer:   # another try: the right option's explanation is not given away
            assert feedback.endswith(TRY_AGAIN) and check.why[check.answer] not in feedback
