"""A regular table: the group, its roster and house rules, invitations, sign-up."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import SignupAttempt
from club.models import Group, GroupPlayer, GroupSession, Invitation, Membership
from club.services import groups
from scoring import services
from scoring.engine import InvalidInput
from scoring.models import Seat, Session
from tests.club.regular_table import evening

GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def group(user) -> Group:
    return groups.group_create(owner=user, name="Dienstagsrunde", money_rate=Decimal("0.05"))


def invite(group: Group, user: User, **kwargs) -> Invitation:
    return groups.invitation_create(group=group, user=user, **kwargs)


class TestGroup:
    def test_the_maker_of_a_group_is_its_owner_and_first_member(self, user, group):
        assert list(group.memberships.values_list("user__username", "role")) == [("anna", "owner")]

    @pytest.mark.parametrize("name", ["", "   ", "x" * 81, "Tisch\n2"])
    def test_a_group_needs_a_one_line_name_and_a_refused_one_makes_nothing(self, user, name):
        with pytest.raises(InvalidInput) as refused:
            groups.group_create(owner=user, name=name)
        assert refused.value.field == "name"
        assert not Group.objects.exists() and not Membership.objects.exists()

    def test_an_evening_of_the_group_seats_the_roster_and_new_names_join_it(self, user, group):
        first, _ = evening(group, user, [])
        second, _ = evening(group, user, [], players=("Anna", "Bert", "Carl", "Emil"))
        assert set(group.roster.values_list("name", flat=True)) == {"Anna", "Bert", "Carl", "Dora", "Emil"}
        anna = group.roster.get(name="Anna")
        assert {seat.session_id for seat in Seat.objects.filter(roster_link__player=anna)} == {
            first.pk,
            second.pk,
        }
        assert GroupSession.objects.get(session=first).group == group

    def test_a_new_evening_starts_from_the_last_seat_order_and_the_groups_house_rules(
        self, logged_in, user, group
    ):
        evening(group, user, [], players=("Dora", "Carl", "Bert", "Anna"))
        groups.group_preset(group=group, variant="french", options={"round_to": 10})
        page = logged_in.get(reverse("group_evening_new", args=[group.pk, "french"])).content.decode()
        seats = [page.split(f'name="seat_{n}" value="')[1].split('"')[0] for n in range(1, 5)]
        assert seats == ["Dora", "Carl", "Bert", "Anna"]
        assert 'value="10" checked' in page or 'value="10" selected' in page
        assert 'name="money_rate" value="0.05' in page

    def test_the_evening_may_still_differ_from_the_groups_house_rules(self, logged_in, user, group):
        groups.group_preset(group=group, variant="french", options={"round_to": 10})
        data = {
            "name": "Freitag",
            "seat_1": "Anna",
            "seat_2": "Bert",
            "seat_3": "Xaver",
            "options.round_to": "5",
        }
        response = logged_in.post(reverse("group_evening_new", args=[group.pk, "french"]), data)
        session = Session.objects.get(name="Freitag")
        assert response.status_code == 302 and GroupSession.objects.get(session=session).group == group
        assert session.options["round_to"] == 5 and session.money_rate is None
        assert group.roster.filter(name="Xaver").exists()

    def test_a_group_evening_is_dealt_first_by_the_seat_asked_for(self, logged_in, group):
        data = {"name": "Samstag", "seat_1": "Anna", "seat_2": "Bert", "seat_3": "Carl", "first_dealer": "2"}
        logged_in.post(reverse("group_evening_new", args=[group.pk, "french"]), data)
        session = Session.objects.get(name="Samstag")
        assert session.first_dealer == "Bert"
        hand_form = logged_in.get(reverse("hand_new", args=[session.pk])).content.decode()
        assert re.search(r'<option value="Bert" selected[^>]*>Bert</option>', hand_form)

    def test_the_owner_keeps_house_rules_on_the_page_and_a_refused_one_changes_nothing(
        self, logged_in, group
    ):
        url = reverse("group_rules", args=[group.pk, "french"])
        assert 'id="house-rules"' in logged_in.get(url).content.decode()
        assert (
            logged_in.post(url, {"options.round_to": "10", "options.five_player_split": "equal"}).status_code
            == 302
        )
        group.refresh_from_db()
        assert group.presets["french"] == {"five_player_split": "equal", "round_to": 10}
        refused = logged_in.post(url, {"options.round_to": "3"})
        assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
        group.refresh_from_db()
        assert group.presets["french"]["round_to"] == 10

    def test_house_rules_are_checked_before_they_are_kept(self, user, group):
        with pytest.raises(InvalidInput) as refused:
            groups.group_preset(group=group, variant="french", options={"round_to": 3})
        assert refused.value.field == "options.round_to"
        group.refresh_from_db()
        assert group.presets == {}

    def test_only_the_owner_changes_settings_house_rules_and_invitations(self, client_for, other_user, group):
        Membership.objects.create(group=group, user=other_user)
        member = client_for(other_user)
        for url in (
            reverse("group_settings", args=[group.pk]),
            reverse("group_rules", args=[group.pk, "french"]),
            reverse("group_invitations", args=[group.pk]),
        ):
            assert member.get(url).status_code == 404
            assert member.post(url, {"name": "X", "min_hands": "3", "action": "invite"}).status_code == 404
        group.refresh_from_db()
        assert group.name == "Dienstagsrunde" and not group.invitations.exists()

    def test_the_owner_links_a_roster_player_to_a_members_account(self, logged_in, other_user, user, group):
        Membership.objects.create(group=group, user=other_user)
        bert = groups.roster_add(group=group, name="Bert")
        url = reverse("group_roster", args=[group.pk])
        logged_in.post(url, {"action": "link", "player": bert.pk, "user": other_user.pk})
        assert GroupPlayer.objects.get(pk=bert.pk).user == other_user
        stranger = User.objects.create_user("zoe", password="x-long-test-password")
        logged_in.post(url, {"action": "link", "player": bert.pk, "user": stranger.pk})
        assert GroupPlayer.objects.get(pk=bert.pk).user == other_user  # only a member's account

    def test_a_session_played_before_counts_once_brought_into_the_group(self, logged_in, make_session, group):
        session = make_session()
        services.hand_record(session=session, raw=GARDE)
        logged_in.post(reverse("group_evening_add", args=[group.pk]), {"session": session.pk})
        assert GroupSession.objects.get(session=session).group == group
        anna = group.roster.get(name="Anna")
        assert anna.evening_results.get().total == 240


class TestInvitations:
    def test_an_invitation_makes_a_member_who_records_hands_in_the_groups_evenings(
        self, client_for, user, other_user, group
    ):
        session, _ = evening(group, user, [])
        invitation = invite(group, user)
        guest = client_for(other_user)
        assert guest.get(reverse("scoreboard", args=[session.pk])).status_code == 404
        assert guest.post(reverse("join", args=[invitation.token])).status_code == 302
        assert group.memberships.filter(user=other_user, role="member").exists()
        invitation.refresh_from_db()
        assert invitation.uses == 1
        data = {"token": "t1", "action": "save", **{k: str(v) for k, v in GARDE.items()}}
        assert guest.post(reverse("hand_new", args=[session.pk]), data).status_code == 302
        assert session.hands.get().created_by == other_user

    def test_the_token_is_unguessable(self, user, group):
        assert len(invite(group, user).token) >= 40

    def test_an_expired_invitation_lets_nobody_in(self, client_for, user, other_user, group):
        invitation = invite(group, user, days=1)
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        response = client_for(other_user).post(reverse("join", args=[invitation.token]))
        assert response.status_code == 410 and "expired" in response.content.decode()
        assert not group.memberships.filter(user=other_user).exists()

    def test_a_revoked_invitation_lets_nobody_in(self, client_for, logged_in, user, other_user, group):
        invitation = invite(group, user)
        logged_in.post(
            reverse("group_invitations", args=[group.pk]), {"action": "revoke", "invitation": invitation.pk}
        )
        response = client_for(other_user).post(reverse("join", args=[invitation.token]))
        assert response.status_code == 410 and "revoked" in response.content.decode()
        assert not group.memberships.filter(user=other_user).exists()

    def test_a_used_up_invitation_is_not_used_again_but_a_member_may_open_it_again(
        self, client_for, user, other_user, group
    ):
        invitation = invite(group, user)
        first = client_for(other_user)
        first.post(reverse("join", args=[invitation.token]))
        again = first.post(reverse("join", args=[invitation.token]))
        assert again.status_code == 302 and again["Location"] == reverse("group_detail", args=[group.pk])
        latecomer = client_for(User.objects.create_user("zoe", password="x-long-test-password"))
        assert latecomer.post(reverse("join", args=[invitation.token])).status_code == 410
        invitation.refresh_from_db()
        assert invitation.uses == 1 and group.memberships.count() == 2

    def test_an_invitation_for_several_people_shown_as_a_qr_code(self, client_for, logged_in, user, group):
        response = logged_in.post(
            reverse("group_invitations", args=[group.pk]), {"action": "invite", "days": "7", "max_uses": "3"}
        )
        invitation = group.invitations.get()
        assert response.status_code == 302 and invitation.max_uses == 3
        page = logged_in.get(reverse("group_invitations", args=[group.pk])).content.decode()
        assert invitation.token in page and '<svg role="img"' in page and "<path" in page
        for name in ("zoe", "yves", "xena"):
            joiner = client_for(User.objects.create_user(name, password="x-long-test-password"))
            assert joiner.post(reverse("join", args=[invitation.token])).status_code == 302
        assert group.memberships.count() == 4

    @pytest.mark.parametrize(("days", "uses"), [("2", "1"), ("7", "0"), ("7", "21"), ("x", "1")])
    def test_a_refused_invitation_form_names_the_field_and_makes_nothing(self, logged_in, group, days, uses):
        response = logged_in.post(
            reverse("group_invitations", args=[group.pk]),
            {"action": "invite", "days": days, "max_uses": uses},
        )
        assert response.status_code == 400 and 'role="alert"' in response.content.decode()
        assert not group.invitations.exists()

    def test_an_unknown_link_is_not_found(self, client, db):
        assert client.get(reverse("join", args=["nothing-here"])).status_code == 404


def signup(client: Client, url: str, name: str = "bert", password: str = "Kreuz-Dame-1902") -> Any:
    return client.post(url, {"username": name, "password1": password, "password2": password})


class TestSignup:
    def test_by_default_accounts_are_made_only_through_an_invitation(self, client, user, group):
        assert settings_signup() == "invitation"
        assert client.get(reverse("signup")).status_code == 403
        assert signup(client, reverse("signup")).status_code == 403
        invitation = invite(group, user)
        response = signup(client, reverse("join_signup", args=[invitation.token]))
        assert response.status_code == 302 and response["Location"] == reverse(
            "group_detail", args=[group.pk]
        )
        bert = User.objects.get(username="bert")
        assert group.memberships.filter(user=bert).exists()
        assert client.get(reverse("group_detail", args=[group.pk])).status_code == 200  # logged in

    def test_an_open_signup_makes_an_account_without_a_group(self, client, db, settings):
        settings.SIGNUP = "open"
        response = signup(client, reverse("signup"))
        assert response.status_code == 302 and User.objects.filter(username="bert").exists()
        assert not Membership.objects.exists()

    def test_with_signup_off_an_invitation_needs_an_account(self, client, user, group, settings):
        settings.SIGNUP = "off"
        invitation = invite(group, user)
        assert signup(client, reverse("join_signup", args=[invitation.token])).status_code == 302
        assert not User.objects.filter(username="bert").exists()
        assert "Make an account" not in client.get(reverse("join", args=[invitation.token])).content.decode()

    def test_weak_or_mismatched_passwords_are_refused_and_make_nothing(self, client, user, group):
        invitation = invite(group, user)
        url = reverse("join_signup", args=[invitation.token])
        for password in ("12345678", "password", "bert"):
            response = signup(client, url, password=password)
            assert response.status_code == 400 and 'role="alert"' in response.content.decode()
        mismatch = client.post(
            url, {"username": "bert", "password1": "Kreuz-Dame-1902", "password2": "other"}
        )
        assert mismatch.status_code == 400
        assert not User.objects.filter(username="bert").exists()
        invitation.refresh_from_db()
        assert invitation.uses == 0

    def test_a_link_that_expired_meanwhile_makes_no_account(self, client, user, group):
        invitation = invite(group, user)
        Invitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())
        assert signup(client, reverse("join_signup", args=[invitation.token])).status_code == 302
        assert not User.objects.filter(username="bert").exists()

    def test_signups_from_one_address_are_limited_before_the_form_is_checked(self, client, user, group):
        invitation = invite(group, user, max_uses=20)
        url = reverse("join_signup", args=[invitation.token])
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        for n in range(10):
            assert signup(client, url, name=f"p{n}", password="short").status_code == 400
        blocked = signup(client, url, name="bert")
        assert blocked.status_code == 429 and "quarter of an hour" in blocked.content.decode()
        assert not User.objects.filter(username="bert").exists()
        assert SignupAttempt.objects.count() == 10

    def test_the_signup_form_needs_its_csrf_token(self, user, group):
        invitation = invite(group, user)
        strict = Client(enforce_csrf_checks=True)
        assert signup(strict, reverse("join_signup", args=[invitation.token])).status_code == 403
        assert not User.objects.filter(username="bert").exists()


def settings_signup() -> str:
    from django.conf import settings

    return str(settings.SIGNUP)


class TestSettings:
    def test_an_unknown_signup_mode_stops_the_app_at_start_up(self, monkeypatch):
        from django.core.exceptions import ImproperlyConfigured

        from tarockscore.settings import env_choice

        monkeypatch.setenv("SIGNUP", "everyone")
        with pytest.raises(ImproperlyConfigured, match="SIGNUP must be one of invitation, open, off"):
            env_choice("SIGNUP", ("invitation", "open", "off"), "invitation")
        monkeypatch.setenv("SIGNUP", " Open ")
        assert env_choice("SIGNUP", ("invitation", "open", "off"), "invitation") == "open"
