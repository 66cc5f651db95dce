"""Who gets an auto's notices and which notice starts a term (Art. 22; issue 24 item 4).

Art. 22 caput: "expedição da notificação à plataforma tecnológica e ao condutor" — the platforms a driver works for
get a copy of every notice of an auto against him. Art. 22 §2: the term runs "a partir da juntada nos autos" of the
notice to the infractor — a platform's copy starts no term of the driver's."""
import pytest

from desktop.domain.auto_steps import notice_platforms, notice_starts_term

DRIVER, UBER, NINE_NINE, LOCAL = 7, 1, 2, 3


@pytest.mark.parametrize("infractor_platform, infractor_driver, driver_platforms, expected", [
    pytest.param(None, DRIVER, (NINE_NINE, UBER), (UBER, NINE_NINE),
                 id="art22-caput-driver-auto-every-platform-of-the-driver-gets-a-copy"),
    pytest.param(None, DRIVER, (), (), id="art22-caput-driver-on-no-platform-no-copy"),
    pytest.param(UBER, DRIVER, (UBER, LOCAL), (UBER, LOCAL),
                 id="art22-caput-co-infractor-platform-once-and-the-drivers-others"),
    pytest.param(UBER, None, (NINE_NINE,), (UBER,), id="art20-platform-auto-only-the-platform-itself"),
    pytest.param(None, DRIVER, (UBER, UBER), (UBER,), id="art22-caput-one-copy-per-platform"),
])
def test_art22_caput_the_platforms_notified_of_an_auto(infractor_platform, infractor_driver, driver_platforms,
                                                        expected):
    assert notice_platforms(infractor_platform, infractor_driver, driver_platforms) == expected


@pytest.mark.parametrize("addressee, platform_id, infractor_platform, starts", [
    pytest.param("driver", None, None, True, id="art22-par2-the-drivers-notice-starts-his-term"),
    pytest.param("driver", None, UBER, True, id="art22-par2-drivers-notice-with-a-co-infractor-platform"),
    pytest.param("platform", UBER, UBER, True, id="art22-par2-the-platform-infractors-notice-starts-the-term"),
    pytest.param("platform", NINE_NINE, None, False,
                 id="art22-caput-a-copy-to-the-drivers-platform-starts-no-term"),
    pytest.param("platform", NINE_NINE, UBER, False,
                 id="art22-caput-a-copy-to-another-platform-of-the-driver-starts-no-term"),
    pytest.param("platform", None, None, True, id="rows-before-the-copies-a-platform-notice-was-the-infractors"),
])
def test_art22_par2_only_the_infractors_notice_starts_a_term(addressee, platform_id, infractor_platform, starts):
    assert notice_starts_term(addressee, platform_id, infractor_platform) is starts
