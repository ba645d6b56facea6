<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one preview page, i.e. one item in one variant.
  $page is the @id of an <entry> element; $root is '../' (preview pages live in items/).
  An entry with <missing> gets a page too: it says why and links to the other variants.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="layout.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="entry" mode="body-class">
    <xsl:text>preview-page</xsl:text>
    <xsl:if test="missing"> missing-page</xsl:if>
  </xsl:template>

  <xsl:template match="entry" mode="title">
    <xsl:variable name="label">
      <xsl:call-template name="label-of"><xsl:with-param name="key" select="@variant"/></xsl:call-template>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="missing">
        <xsl:text>No </xsl:text>
        <xsl:value-of select="$label"/>
        <xsl:text> match · </xsl:text>
        <xsl:call-template name="position-text"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="caption-or-position"/>
        <xsl:if test="count(/gallery/variants/variant) &gt; 1">
          <xsl:text> · </xsl:text>
          <xsl:value-of select="$label"/>
        </xsl:if>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:text> — </xsl:text>
    <xsl:value-of select="/gallery/title"/>
  </xsl:template>

  <!-- ============================================================ navigation bar -->

  <xsl:template match="entry" mode="bar">
    <xsl:variable name="item" select=".."/>
    <xsl:variable name="collection" select="../.."/>
    <xsl:variable name="grid" select="$collection/page[@number = $item/@page]"/>
    <xsl:variable name="prev" select="$item/preceding-sibling::item[1]/entry[@variant = current()/@variant]"/>
    <xsl:variable name="next" select="$item/following-sibling::item[1]/entry[@variant = current()/@variant]"/>
    <nav class="bar" aria-label="Image">
      <a class="up" data-nav="up" href="{concat($root, $grid/@href, '#', $item/@id)}">
        <span aria-hidden="true">↖</span>
        <!-- A newest-first collection's preview holds no page count: it has more than one page when its item's is
             not the first or is not the newest. -->
        <xsl:choose>
          <xsl:when test="$collection/@page-count &gt; 1 or (not($collection/@page-count) and ($grid/@number &gt; 1 or $grid/@href != /gallery/archive/@href))">Back to page <xsl:value-of select="$grid/@number"/></xsl:when>
          <xsl:otherwise>Back to all images</xsl:otherwise>
        </xsl:choose>
      </a>
      <xsl:if test="$collection/@item-count">
        <span class="pos">
          <span class="vh">Image </span>
          <xsl:value-of select="$item/@position"/>
          <xsl:text> of </xsl:text>
          <xsl:value-of select="$collection/@item-count"/>
        </span>
      </xsl:if>
      <xsl:if test="count($item/entry) &gt; 1">
        <span class="switch" role="group" aria-label="Variants">
          <xsl:for-each select="/gallery/variants/variant">
            <xsl:variable name="e" select="$item/entry[@variant = current()/@key]"/>
            <xsl:choose>
              <xsl:when test="not($e)"/>
              <xsl:when test="$e/@id = $page">
                <span class="on" aria-current="page" data-nav="variant-current"><xsl:value-of select="@label"/></span>
              </xsl:when>
              <xsl:otherwise>
                <a data-nav="variant" href="{concat($root, $e/@href)}">
                  <xsl:if test="$e/missing">
                    <xsl:attribute name="class">none</xsl:attribute>
                  </xsl:if>
                  <xsl:value-of select="@label"/>
                  <xsl:if test="$e/missing"><span class="vh"> (no match)</span></xsl:if>
                </a>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:for-each>
        </span>
      </xsl:if>
      <span class="steps">
        <xsl:call-template name="step">
          <xsl:with-param name="to" select="$prev"/>
          <xsl:with-param name="rel" select="'prev'"/>
        </xsl:call-template>
        <xsl:call-template name="step">
          <xsl:with-param name="to" select="$next"/>
          <xsl:with-param name="rel" select="'next'"/>
        </xsl:call-template>
      </span>
    </nav>
  </xsl:template>

  <!-- A previous/next link, or a disabled-looking span at the ends. -->
  <xsl:template name="step">
    <xsl:param name="to"/>
    <xsl:param name="rel"/>
    <xsl:variable name="text">
      <xsl:choose>
        <xsl:when test="$rel = 'prev'">Previous</xsl:when>
        <xsl:otherwise>Next</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$to">
        <xsl:variable name="img" select="($to/image[@role = 'full'][@src or @url] | $to/image[@src or @url])[1]"/>
        <a class="step" rel="{$rel}" href="{concat($root, $to/@href)}">
          <xsl:if test="$img">
            <xsl:attribute name="data-prefetch"><xsl:call-template name="image-href"><xsl:with-param name="img" select="$img"/></xsl:call-template></xsl:attribute>
          </xsl:if>
          <xsl:if test="$rel = 'prev'"><span aria-hidden="true">←</span></xsl:if>
          <span class="word"><xsl:value-of select="$text"/></span>
          <xsl:if test="$rel = 'next'"><span aria-hidden="true">→</span></xsl:if>
        </a>
      </xsl:when>
      <xsl:otherwise>
        <span class="step off">
          <xsl:if test="$rel = 'prev'"><span aria-hidden="true">←</span></xsl:if>
          <span class="word"><xsl:value-of select="$text"/></span>
          <xsl:if test="$rel = 'next'"><span aria-hidden="true">→</span></xsl:if>
        </span>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ============================================================ the image -->

  <xsl:template match="entry" mode="main">
    <figure class="viewer" data-swipe="">
      <div class="stage">
        <xsl:call-template name="image">
          <xsl:with-param name="role" select="'full'"/>
          <xsl:with-param name="eager" select="true()"/>
          <xsl:with-param name="first" select="true()"/>
          <xsl:with-param name="sizes"><xsl:call-template name="photo-sizes"/></xsl:with-param>
        </xsl:call-template>
      </div>
      <figcaption>
        <h1 dir="auto"><xsl:call-template name="caption-or-position"/></h1>
        <xsl:call-template name="credit">
          <xsl:with-param name="full" select="true()"/>
        </xsl:call-template>
        <xsl:if test="not(credit or license)">
          <xsl:call-template name="last-seen">
            <xsl:with-param name="element" select="'p'"/>
          </xsl:call-template>
        </xsl:if>
      </figcaption>
    </figure>
    <!-- After the figure, so that the picture and its caption still fill the first screen. -->
    <xsl:if test="tag">
      <nav class="tags" aria-label="Tags">
        <ul>
          <xsl:for-each select="tag">
            <li>
              <xsl:choose>
                <xsl:when test="@href"><a rel="tag" href="{concat($root, @href)}" dir="auto"><xsl:value-of select="."/></a></xsl:when>
                <!-- an archived picture's tag: tag pages list the results only -->
                <xsl:otherwise><span dir="auto"><xsl:value-of select="."/></span></xsl:otherwise>
              </xsl:choose>
            </li>
          </xsl:for-each>
        </ul>
      </nav>
    </xsl:if>
  </xsl:template>

  <!-- An entry without an image for its variant. -->
  <xsl:template match="entry[missing]" mode="main">
    <xsl:variable name="label">
      <xsl:call-template name="label-of"><xsl:with-param name="key" select="@variant"/></xsl:call-template>
    </xsl:variable>
    <xsl:variable name="other" select="../entry[not(missing)][1]"/>
    <div class="missing" data-swipe="">
      <h1>No <xsl:value-of select="$label"/> match</h1>
      <p class="why"><xsl:value-of select="missing"/></p>
      <xsl:for-each select="$other">
        <xsl:variable name="other-label">
          <xsl:call-template name="label-of"><xsl:with-param name="key" select="@variant"/></xsl:call-template>
        </xsl:variable>
        <a class="frame" href="{concat($root, @href)}">
          <xsl:call-template name="image">
            <xsl:with-param name="role" select="'tile'"/>
            <xsl:with-param name="eager" select="true()"/>
          </xsl:call-template>
        </a>
        <p>
          <a href="{concat($root, @href)}">See the <xsl:value-of select="$other-label"/> image</a>
        </p>
      </xsl:for-each>
    </div>
  </xsl:template>

</xsl:stylesheet>
